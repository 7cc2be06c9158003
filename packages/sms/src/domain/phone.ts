/** Removes the spacing people put into phone numbers: spaces, dashes and parentheses. */
export function compactPhone(text: string): string {
  return text.replace(/[\s\-()]/g, '');
}

/** The number in `+DIGITS` form when it is `+` and 3 to 15 digits after removing spacing, else undefined. */
export function normalizePhone(text: string): string | undefined {
  const compact = compactPhone(text);
  return /^\+\d{3,15}$/.test(compact) ? compact : undefined;
}
