/** How deep request JSON may nest where the service walks it recursively (references, templates, run records). */
export const MAX_JSON_DEPTH = 64;

/**
 * True when objects and arrays in `value` nest deeper than `max` levels.
 * Iterative, so asking about any depth is safe: JSON.parse accepts nesting
 * that recursive code (JSON.stringify included) cannot walk.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[value: unknown, depth: number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}
