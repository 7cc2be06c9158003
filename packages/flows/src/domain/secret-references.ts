/**
 * `{{secrets.NAME}}`: an organization's secret, referenced by name in the
 * parts of a tool's request that go to the tool's server and nowhere else (an
 * HTTP tool's URL, headers and body, an MCP tool's headers), so a secret never
 * reaches a model, a reply or a stored definition. Pure: which secrets exist
 * is passed in, so the browser's builder runs the same checks.
 */
import type { FlowNode } from './flow-definition.ts';
import { referencesIn } from './references.ts';

/** The root of a secret reference. */
export const SECRETS_ROOT = 'secrets';

/** A secret's name: a letter or "_", then letters, digits and "_" (64 at most), like an environment variable. */
export const SECRET_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Where a secret may be referenced, as it reads in a problem. */
export const SECRET_PLACES = "an HTTP tool's URL, headers or body, or an MCP tool's headers";

/** One string of a node's data, with its path under `data` (`request.headers.Authorization`). */
interface PlacedString {
  field: string;
  text: string;
  /** True when a secret may be referenced here. */
  allowed: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function collect(value: unknown, field: string, allowed: boolean, out: PlacedString[]): void {
  if (typeof value === 'string') out.push({ field, text: value, allowed });
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) collect(item, `${field}[${index}]`, allowed, out);
  else if (isObject(value)) for (const [key, item] of Object.entries(value)) collect(item, field === '' ? key : `${field}.${key}`, allowed, out);
}

/** The places of a tool node's data where a secret may be referenced: [field, value]. */
function secretPlaces(node: FlowNode): Array<[string, unknown]> {
  if (node.type !== 'tool') return [];
  const data = node.data;
  if (data.kind === 'http' && isObject(data.request)) {
    return [
      ['request.url', data.request.url],
      ['request.headers', data.request.headers],
      ['request.body', data.request.body],
    ];
  }
  if (data.kind === 'mcp') return [['headers', data.headers]];
  return [];
}

/** Every string of a node's data, each marked with whether a secret may appear in it. */
function placedStrings(node: FlowNode): PlacedString[] {
  const out: PlacedString[] = [];
  const places = new Map(secretPlaces(node));
  const walk = (value: unknown, field: string) => {
    if (places.has(field)) return collect(value, field, true, out);
    if (isObject(value)) for (const [key, item] of Object.entries(value)) walk(item, field === '' ? key : `${field}.${key}`);
    else collect(value, field, false, out);
  };
  walk(node.data, '');
  return out;
}

/**
 * Checks the secret references of a node: only in SECRET_PLACES, written
 * `{{secrets.NAME}}`, and naming a secret in `known` (when given: a caller
 * that has not loaded the names yet skips that one check). `at` reports a
 * problem with the field it is about.
 */
export function checkSecretReferences(node: FlowNode, known: ReadonlySet<string> | undefined, at: (message: string, field?: string) => void): void {
  if (node.type === 'input') return;
  for (const { field, text, allowed } of placedStrings(node)) {
    for (const ref of referencesIn(text)) {
      if (ref.root !== SECRETS_ROOT) continue;
      if (!allowed) {
        at(`${ref.raw} may only be used in ${SECRET_PLACES}, so that a secret never reaches a model or a reply`, field || undefined);
      } else if (ref.path.length !== 1 || !SECRET_NAME_PATTERN.test(ref.path[0])) {
        at(`${ref.raw} is not a secret reference: write {{secrets.NAME}}, NAME being letters, digits and "_"`, field);
      } else if (known && !known.has(ref.path[0])) {
        at(`unknown secret ${ref.raw}: the organization has no secret "${ref.path[0]}" (set it first)`, field);
      }
    }
  }
}

/** Names of the secrets a node's tool request uses (its allowed places only), in order of first use. */
export function secretNamesOf(node: FlowNode): string[] {
  const names = new Set<string>();
  for (const [, value] of secretPlaces(node)) {
    const strings: PlacedString[] = [];
    collect(value, '', true, strings);
    for (const { text } of strings) for (const ref of referencesIn(text)) if (ref.root === SECRETS_ROOT && ref.path.length === 1) names.add(ref.path[0]);
  }
  return [...names];
}
