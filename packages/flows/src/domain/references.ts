/**
 * References inside node settings: `{{input.NAME}}`, `{{NODE_ID.FIELD}}`,
 * `{{metadata.KEY}}` (and `{{args.NAME}}` and `{{secrets.NAME}}` inside tool
 * requests, see secret-references.ts). Pure.
 */

/** One `{{root.path}}` occurrence. */
export interface Reference {
  /** `input`, `metadata`, `args` or a node id. */
  root: string;
  /** The dotted path after the root, split (`["text"]`, `["customer", "name"]`). */
  path: string[];
  /** The text as written, e.g. `{{answer.text}}`. */
  raw: string;
}

const REFERENCE = /\{\{\s*([A-Za-z0-9_-]+)((?:\.[A-Za-z0-9_-]+)+)\s*\}\}/g;
const SINGLE_REFERENCE = /^\s*\{\{\s*([A-Za-z0-9_-]+)((?:\.[A-Za-z0-9_-]+)+)\s*\}\}\s*$/;
const ANY_BRACES = /\{\{(.*?)\}\}/g;

/** Every reference in a string. */
export function referencesIn(text: string): Reference[] {
  const found: Reference[] = [];
  for (const match of text.matchAll(REFERENCE)) found.push({ root: match[1], path: match[2].slice(1).split('.'), raw: match[0] });
  return found;
}

/** `{{…}}` sequences that are not well-formed references (reported on save). */
export function malformedReferences(text: string): string[] {
  const bad: string[] = [];
  for (const match of text.matchAll(ANY_BRACES)) {
    if (!SINGLE_REFERENCE.test(match[0])) bad.push(match[0]);
  }
  return bad;
}

/** Every reference in every string of a JSON value (keys excluded). */
export function referencesInValue(value: unknown): Reference[] {
  if (typeof value === 'string') return referencesIn(value);
  if (Array.isArray(value)) return value.flatMap(referencesInValue);
  if (value && typeof value === 'object') return Object.values(value).flatMap(referencesInValue);
  return [];
}

/** Every string of a JSON value, for checks that look at text (malformed braces). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/** What references resolve against during a run. */
export interface Scope {
  input: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** Outputs of finished nodes by id; a skipped node has none. */
  nodes: Record<string, unknown>;
  /** Tool-call arguments, inside tool requests only. */
  args?: Record<string, unknown>;
  /** Secret values by name, inside the request of a tool that references them only. */
  secrets?: Record<string, string>;
}

/** The value a reference points at, or undefined when absent (skipped node, missing key). */
export function resolveReference(scope: Scope, root: string, path: string[]): unknown {
  let value: unknown;
  if (root === 'input') value = scope.input;
  else if (root === 'metadata') value = scope.metadata;
  else if (root === 'args' && scope.args) value = scope.args;
  else if (root === 'secrets' && scope.secrets) value = scope.secrets;
  else value = scope.nodes[root];
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A value as text inside a rendered string: strings as they are, absent as empty, others as JSON. */
export function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Renders a string template, replacing each reference by its value as text. */
export function renderTemplate(template: string, scope: Scope): string {
  if (!template.includes('{{')) return template;
  return template.replace(REFERENCE, (_m, root: string, path: string) => stringify(resolveReference(scope, root, path.slice(1).split('.'))));
}

/** Resolves a value that is exactly one reference to its typed value, else renders it as text; non-strings pass. */
export function resolveValue(value: unknown, scope: Scope): unknown {
  if (typeof value !== 'string') return value;
  const single = SINGLE_REFERENCE.exec(value);
  if (single) return resolveReference(scope, single[1], single[2].slice(1).split('.'));
  return renderTemplate(value, scope);
}

/**
 * Renders a json_template: a string that is exactly one reference keeps the
 * referenced value's JSON type (absent becomes null), other strings are rendered.
 */
export function renderJsonTemplate(template: unknown, scope: Scope): unknown {
  if (typeof template === 'string') {
    const value = resolveValue(template, scope);
    return value === undefined ? null : value;
  }
  if (Array.isArray(template)) return template.map((item) => renderJsonTemplate(item, scope));
  if (template && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(template)) out[key] = renderJsonTemplate(item, scope);
    return out;
  }
  return template;
}
