import type { InputVariable } from './flow-definition.ts';
import type { ProblemDetail } from './errors.ts';

const TYPE_WORDS: Record<InputVariable['type'], string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  enum: 'one of the allowed values',
  object: 'an object',
  array: 'an array',
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Problems of one value against its variable (no coercion: "5" is not an integer). */
export function checkVariable(variable: InputVariable, value: unknown): string[] {
  const t = variable.type;
  const ok =
    (t === 'string' && typeof value === 'string') ||
    (t === 'number' && typeof value === 'number' && Number.isFinite(value)) ||
    (t === 'integer' && Number.isInteger(value)) ||
    (t === 'boolean' && typeof value === 'boolean') ||
    (t === 'object' && isPlainObject(value)) ||
    (t === 'array' && Array.isArray(value)) ||
    (t === 'enum' && (variable.values ?? []).some((allowed) => allowed === value));
  if (!ok) {
    if (t === 'enum') return [`must be one of ${(variable.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`];
    return [`must be ${TYPE_WORDS[t]}`];
  }
  const problems: string[] = [];
  if (typeof value === 'number') {
    if (variable.minimum !== undefined && value < variable.minimum) problems.push(`must be at least ${variable.minimum}`);
    if (variable.maximum !== undefined && value > variable.maximum) problems.push(`must be at most ${variable.maximum}`);
  }
  if (typeof value === 'string' || Array.isArray(value)) {
    const unit = typeof value === 'string' ? 'characters' : 'items';
    const length = typeof value === 'string' ? [...value].length : value.length;
    if (variable.min_length !== undefined && length < variable.min_length) problems.push(`must have at least ${variable.min_length} ${unit}`);
    if (variable.max_length !== undefined && length > variable.max_length) problems.push(`must have at most ${variable.max_length} ${unit}`);
  }
  return problems;
}

/**
 * Checks a run's input against the Input node: every unknown key, missing
 * required variable and wrong value is one problem; defaults fill absent
 * optional variables. Returns the completed input or the problems.
 */
export function validateInput(
  variables: InputVariable[],
  input: Record<string, unknown>,
): { ok: true; input: Record<string, unknown> } | { ok: false; problems: ProblemDetail[] } {
  const problems: ProblemDetail[] = [];
  const known = new Set(variables.map((v) => v.name));
  for (const key of Object.keys(input)) {
    if (!known.has(key)) problems.push({ param: `input.${key}`, message: `Unknown input variable "${key}"` });
  }
  const out: Record<string, unknown> = {};
  for (const variable of variables) {
    const param = `input.${variable.name}`;
    if (!Object.hasOwn(input, variable.name) || input[variable.name] === undefined) {
      if (variable.required) problems.push({ param, message: `Missing required variable "${variable.name}"` });
      else if (variable.default !== undefined) out[variable.name] = structuredClone(variable.default);
      continue;
    }
    const value = input[variable.name];
    for (const message of checkVariable(variable, value)) problems.push({ param, message: `"${variable.name}" ${message}` });
    out[variable.name] = value;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, input: out };
}

/** The JSON Schema (draft 2020-12) of a flow's input object, derived from the Input node. */
export function inputJsonSchema(variables: InputVariable[], title?: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const v of variables) {
    const schema: Record<string, unknown> = {};
    if (v.type === 'enum') schema.enum = v.values ?? [];
    else schema.type = v.type;
    if (v.description !== undefined) schema.description = v.description;
    if (v.default !== undefined) schema.default = v.default;
    if (v.minimum !== undefined) schema.minimum = v.minimum;
    if (v.maximum !== undefined) schema.maximum = v.maximum;
    if (v.min_length !== undefined) schema[v.type === 'array' ? 'minItems' : 'minLength'] = v.min_length;
    if (v.max_length !== undefined) schema[v.type === 'array' ? 'maxItems' : 'maxLength'] = v.max_length;
    properties[v.name] = schema;
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...(title ? { title } : {}),
    type: 'object',
    properties,
    required: variables.filter((v) => v.required).map((v) => v.name),
    additionalProperties: false,
  };
}

/** An example input for snippets: each required variable (and defaults) with a placeholder of its type. */
export function exampleInput(variables: InputVariable[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const v of variables) {
    if (!v.required) continue;
    if (v.type === 'string') out[v.name] = v.description ? `${v.description}` : `example ${v.name}`;
    else if (v.type === 'integer' || v.type === 'number') out[v.name] = v.minimum ?? 1;
    else if (v.type === 'boolean') out[v.name] = true;
    else if (v.type === 'enum') out[v.name] = v.values?.[0] ?? null;
    else if (v.type === 'object') out[v.name] = {};
    else out[v.name] = [];
  }
  return out;
}

/** The variable the last user message of a chat completion fills: the first required string, else the first string. */
export function chatVariable(variables: InputVariable[]): string | undefined {
  return (variables.find((v) => v.type === 'string' && v.required) ?? variables.find((v) => v.type === 'string'))?.name;
}
