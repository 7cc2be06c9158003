/**
 * A flow made from a template (`POST …/flows` with `template` and
 * `bindings`): every problem of the request is named at once, then each
 * `{{bindings.NAME}}` of the template's definition is replaced by its value.
 * Pure: what the organization has is passed in.
 */
import { FlowsError, type ProblemDetail } from './errors.ts';
import type { FlowDefinition } from './flow-definition.ts';
import { FLOW_TEMPLATES, findTemplate, type FlowTemplate } from './flow-templates.ts';

/** What the organization has, for checking bindings. */
export interface TemplateContext {
  providers: ReadonlySet<string>;
  knowledgeBases: ReadonlySet<string>;
  secrets: ReadonlySet<string>;
}

/** Binding keys and the need that asks for each. */
const BINDING_NEEDS: Record<string, string> = { provider: 'provider', model: 'provider', knowledge_base: 'knowledge_base', url: 'url' };
const BODY_KEYS = new Set(['name', 'description', 'template', 'bindings']);
const BINDING = /\{\{bindings\.([a-z_]+)\}\}/g;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** True when a save body asks for a flow made from a template rather than giving a definition. */
export function isTemplateRequest(body: unknown): body is Json {
  return isObject(body) && body.template !== undefined && body.nodes === undefined;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Problems of one binding's value, given that the template needs it. */
function checkBinding(key: string, value: unknown, context: TemplateContext, add: (param: string, message: string) => void): void {
  const param = `bindings.${key}`;
  if (value === undefined || value === null || value === '') {
    const what: Record<string, string> = {
      provider: 'a provider connection ("provider")',
      model: 'a model ("model")',
      knowledge_base: 'a knowledge base ("knowledge_base")',
      url: 'the URL its tool calls ("url")',
    };
    add(param, `This template needs ${what[key]}`);
    return;
  }
  if (typeof value !== 'string' || value.length > 2000 || value.includes('{{')) {
    add(param, `"${key}" must be a string of at most 2000 characters without "{{"`);
    return;
  }
  if (key === 'provider' && !context.providers.has(value)) add(param, `Unknown provider connection "${value}": add it under LLM Hub → Providers first`);
  if (key === 'knowledge_base' && !context.knowledgeBases.has(value)) add(param, `Unknown knowledge base "${value}": create it under Knowledge first`);
  if (key === 'url' && !isHttpUrl(value)) add(param, `"url" must be an http:// or https:// URL`);
}

/** Replaces `{{bindings.NAME}}` in every string of a JSON value. */
function bind<T>(value: T, bindings: Record<string, string>): T {
  if (typeof value === 'string') return value.replace(BINDING, (_all, key: string) => bindings[key] ?? '') as T;
  if (Array.isArray(value)) return value.map((item) => bind(item, bindings)) as T;
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bind(v, bindings)])) as T;
  return value;
}

/**
 * The definition a template request makes (name and description from the
 * request when given, else the template's), or a 422 `invalid_bindings`
 * listing every problem: an unknown template, a missing or unknown binding,
 * a binding the template does not use, a secret it needs that is not set.
 */
export function instantiateTemplate(body: Json, context: TemplateContext): { template: FlowTemplate; definition: FlowDefinition } {
  const problems: ProblemDetail[] = [];
  const add = (param: string, message: string) => problems.push({ param, message });
  for (const key of Object.keys(body))
    if (!BODY_KEYS.has(key)) add(key, `Unknown key "${key}": a flow from a template takes "name", "description", "template" and "bindings"`);
  const template = typeof body.template === 'string' ? findTemplate(body.template) : undefined;
  if (!template) add('template', `"template" must name a template: one of ${FLOW_TEMPLATES.map((t) => t.id).join(', ')} (GET …/templates lists them)`);
  if (body.name !== undefined && (typeof body.name !== 'string' || body.name.trim() === '' || body.name.length > 200))
    add('name', '"name" must be a non-empty string of at most 200 characters');
  if (body.description !== undefined && typeof body.description !== 'string') add('description', '"description" must be a string');
  const bindings = body.bindings ?? {};
  if (!isObject(bindings)) add('bindings', '"bindings" must be an object: {"provider", "model", "knowledge_base", "url"}, as the template needs');
  else if (template) {
    const needs = new Set<string>(template.needs);
    for (const key of Object.keys(bindings)) {
      if (!(key in BINDING_NEEDS)) add(`bindings.${key}`, `Unknown binding "${key}": bindings are ${Object.keys(BINDING_NEEDS).join(', ')}`);
      else if (!needs.has(BINDING_NEEDS[key])) add(`bindings.${key}`, `Template "${template.id}" does not use "${key}"`);
    }
    for (const key of Object.keys(BINDING_NEEDS)) if (needs.has(BINDING_NEEDS[key])) checkBinding(key, bindings[key], context, add);
    for (const need of template.needs) {
      if (!need.startsWith('secret:')) continue;
      const name = need.slice('secret:'.length);
      if (!context.secrets.has(name)) add(`secrets.${name}`, `This template needs the secret ${name}: set it first (PUT …/secrets/${name})`);
    }
  }
  if (problems.length > 0 || !template) {
    const first = problems[0];
    const message = problems.length === 1 ? first.message : `${first.message} (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})`;
    throw new FlowsError('validation_failed', message, 'invalid_bindings', { param: first.param, details: problems });
  }
  const definition = bind(structuredClone(template.definition), bindings as Record<string, string>);
  if (typeof body.name === 'string') definition.name = body.name.trim();
  if (typeof body.description === 'string') definition.description = body.description;
  return { template, definition };
}
