import type { FlowNode } from '../domain/flow-definition.ts';
import type { Scope } from '../domain/references.ts';
import { SECRETS_ROOT, secretNamesOf } from '../domain/secret-references.ts';
import type { RunServices } from './run-services.ts';

/** What replaces a secret's value wherever a tool's request or error would echo it. */
export const SECRET_MASK = '***';

/**
 * A secret a tool references is not set (deleted after the flow was saved):
 * the call fails with this message as its tool error, and the run goes on.
 */
export class MissingSecret extends Error {
  constructor(nodeId: string, names: string[]) {
    const list = names.map((name) => `"${name}"`).join(', ');
    super(
      `Tool node "${nodeId}" cannot send its request: secret${names.length > 1 ? 's' : ''} ${list} ${names.length > 1 ? 'are' : 'is'} not set ` +
        `(deleted after the flow was saved?); set ${names.length > 1 ? 'them' : 'it'} again under the organization's secrets`,
    );
    this.name = 'MissingSecret';
  }
}

/** How a URL parser writes `value` in a query or a path (it escapes spaces and quotes, not `&` or `/`), when it keeps it whole. */
function urlForms(value: string): string[] {
  const whole = (form: string) => {
    try {
      return decodeURIComponent(form) === value;
    } catch {
      return false;
    }
  };
  // A `#` or `?` cuts the value short: masking a piece of it would mask unrelated text.
  return [new URL(`http://x/?${value}`).search.slice(1), new URL(`http://x/${value}`).pathname.slice(1)].filter(whole);
}

const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);

/**
 * Replaces secret values in text and in JSON values, longest first: each
 * value as it is and as an echo could write it: percent-encoded (a URL's
 * query or path, a form body), JSON-escaped once or twice (a JSON text, a
 * JSON body quoted inside a JSON answer).
 */
export class SecretMask {
  private readonly forms: string[];

  constructor(values: Iterable<string>) {
    const forms = new Set<string>();
    for (const value of values) {
      if (value === '') continue;
      const encoded = [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), ...urlForms(value)];
      for (const form of encoded)
        if (form !== '')
          forms
            .add(form)
            .add(jsonEscaped(form))
            .add(jsonEscaped(jsonEscaped(form)));
    }
    this.forms = [...forms].sort((a, b) => b.length - a.length);
  }

  /** True when there is nothing to mask. */
  get empty(): boolean {
    return this.forms.length === 0;
  }

  /** `text` with every secret value masked. */
  text(text: string): string {
    let out = text;
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(SECRET_MASK);
    return out;
  }

  /** A JSON value with every string (and object key) masked; other values as they are. */
  value<T>(value: T): T {
    if (this.empty) return value;
    return this.walk(value) as T;
  }

  /** An error with its message masked (a new Error: the original may be referenced elsewhere). */
  error(error: unknown): Error {
    const message = error instanceof Error ? error.message : String(error);
    return new Error(this.text(message));
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[this.text(key)] = this.walk(item);
      return out;
    }
    return value;
  }
}

/** A tool request's scope with its secrets, and the mask for what comes back. */
export interface ToolSecrets {
  scope: Scope;
  mask: SecretMask;
}

/**
 * Reveals the secrets a tool node's request references and adds them to
 * `scope`. A flow saved before secrets existed may have a node whose id is
 * `secrets`: there `{{secrets.…}}` keeps meaning that node. Throws
 * MissingSecret when one is not set.
 */
export async function toolSecrets(node: FlowNode, nodeIds: ReadonlyMap<string, unknown>, scope: Scope, services: RunServices): Promise<ToolSecrets> {
  const names = nodeIds.has(SECRETS_ROOT) ? [] : secretNamesOf(node);
  if (names.length === 0) return { scope, mask: new SecretMask([]) };
  const values = await services.revealSecrets(names);
  const missing = names.filter((name) => !values.has(name));
  if (missing.length > 0) throw new MissingSecret(node.id, missing);
  return { scope: { ...scope, secrets: Object.fromEntries(values) }, mask: new SecretMask(values.values()) };
}
