import {
  NODE_OUTPUT_FIELDS,
  NODE_TYPES,
  OUTPUT_FORMATS,
  SWITCH_OPS,
  VARIABLE_TYPES,
  type FlowDefinition,
  type FlowEdge,
  type FlowNode,
  type InputVariable,
  type NodeType,
} from './flow-definition.ts';
import { invalidFlow, type ProblemDetail } from './errors.ts';
import { ancestorsOf, buildGraph, type FlowGraph } from './flow-graph.ts';
import { checkVariable } from './input-variables.ts';
import { malformedReferences, referencesInValue, stringsIn } from './references.ts';
import { SLUG_PATTERN } from './slug.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';
import { checkToolNodeData } from './node-validation.ts';
import { checkSecretReferences, SECRETS_ROOT } from './secret-references.ts';

const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const RESERVED_IDS = new Set(['metadata', 'args', SECRETS_ROOT]);
// Keys the format defines; any other key of a definition, node or edge is the
// client's (a builder's label, a comment): kept as saved, ignored by the engine.
const DEFINITION_KEYS = new Set(['name', 'slug', 'description', 'nodes', 'edges']);
const NODE_KEYS = new Set(['id', 'type', 'data', 'position']);
const EDGE_KEYS = new Set(['from', 'to']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isInteger(v);

/** What validation needs to know beyond the definition itself. */
export interface ValidationContext {
  /** Provider connection names usable by this organization (its own plus environment fallbacks). */
  providers: ReadonlySet<string>;
  /**
   * Names of the organization's secrets, for `{{secrets.NAME}}`. The service always passes them; a
   * caller that has not loaded them (a builder still loading) leaves them out, and only that check is skipped.
   */
  secrets?: ReadonlySet<string>;
}

/**
 * Checks a definition as submitted and returns it typed, or throws a 422
 * listing every problem, each message naming the node (or edge) at fault.
 * What it returns is what was sent (the name trimmed): a node's `position`
 * and keys the format does not define are kept, so a builder gets back
 * exactly what it saved.
 */
export function validateDefinition(raw: unknown, context: ValidationContext): FlowDefinition {
  const problems: ProblemDetail[] = [];
  const add = (param: string, message: string) => problems.push({ param, message });
  if (!isObject(raw)) throw invalidFlow([{ param: 'definition', message: 'The flow definition must be a JSON object' }]);

  if (typeof raw.name !== 'string' || raw.name.trim() === '' || raw.name.length > 200)
    add('name', 'Flow "name" must be a non-empty string of at most 200 characters');
  if (raw.slug !== undefined && (typeof raw.slug !== 'string' || !SLUG_PATTERN.test(raw.slug))) {
    add('slug', 'Flow "slug" must be 1-60 characters of a-z, 0-9 and inner hyphens');
  }
  if (raw.description !== undefined && typeof raw.description !== 'string') add('description', 'Flow "description" must be a string');
  if (!Array.isArray(raw.nodes) || raw.nodes.length === 0) add('nodes', 'Flow "nodes" must be a non-empty array');
  if (raw.edges !== undefined && !Array.isArray(raw.edges)) add('edges', 'Flow "edges" must be an array');
  const extra = tooDeepKey(raw, DEFINITION_KEYS);
  if (extra !== undefined) add(extra, `Flow "${extra}" nests deeper than ${MAX_JSON_DEPTH} levels`);
  if (problems.length > 0) throw invalidFlow(problems);

  const nodes: FlowNode[] = [];
  const ids = new Set<string>();
  for (const [index, entry] of (raw.nodes as unknown[]).entries()) {
    const param = `nodes[${index}]`;
    if (!isObject(entry)) {
      add(param, `Node ${index} must be an object`);
      continue;
    }
    const id = entry.id;
    if (typeof id !== 'string' || !NODE_ID.test(id)) {
      add(`${param}.id`, `Node ${index} needs an "id" of 1-64 letters, digits, "_" or "-"`);
      continue;
    }
    if (RESERVED_IDS.has(id)) {
      add(`${param}.id`, `Node "${id}": "${id}" is reserved for references`);
      continue;
    }
    if (ids.has(id)) {
      add(`${param}.id`, `Node "${id}": duplicate node id`);
      continue;
    }
    ids.add(id);
    if (!NODE_TYPES.includes(entry.type as NodeType)) {
      add(`${param}.type`, `Node "${id}": unknown node type "${String(entry.type)}"`);
      continue;
    }
    if (entry.data !== undefined && !isObject(entry.data)) {
      add(`${param}.data`, `Node "${id}": "data" must be an object`);
      continue;
    }
    // Refused at once: every later check walks the data recursively.
    if (nestsDeeperThan(entry.data, MAX_JSON_DEPTH))
      throw invalidFlow([{ param: `${param}.data`, message: `Node "${id}": "data" nests deeper than ${MAX_JSON_DEPTH} levels` }]);
    // Listed, but the node stays in the graph: its edges and the input/output count are still checked.
    if (entry.position !== undefined && !isPosition(entry.position)) add(`${param}.position`, `Node "${id}": "position" must be {"x": number, "y": number}`);
    const extra = tooDeepKey(entry, NODE_KEYS);
    if (extra !== undefined) add(`${param}.${extra}`, `Node "${id}": "${extra}" nests deeper than ${MAX_JSON_DEPTH} levels`);
    // Spread first: keys the engine does not read (a builder's own) are kept as saved, in their order.
    nodes.push({ ...entry, id, type: entry.type as NodeType, data: (entry.data as Json | undefined) ?? {} });
  }

  const edges: FlowEdge[] = [];
  for (const [index, entry] of ((raw.edges as unknown[] | undefined) ?? []).entries()) {
    const param = `edges[${index}]`;
    if (!isObject(entry) || typeof entry.from !== 'string' || typeof entry.to !== 'string') {
      add(param, `Edge ${index} must be {"from": NODE_ID, "to": NODE_ID}`);
      continue;
    }
    if (!ids.has(entry.from)) {
      add(`${param}.from`, `Edge ${index} from "${entry.from}" to "${entry.to}": unknown node "${entry.from}"`);
      continue;
    }
    if (!ids.has(entry.to)) {
      add(`${param}.to`, `Edge ${index} from "${entry.from}" to "${entry.to}": unknown node "${entry.to}"`);
      continue;
    }
    const extra = tooDeepKey(entry, EDGE_KEYS);
    if (extra !== undefined) {
      add(`${param}.${extra}`, `Edge ${index} from "${entry.from}" to "${entry.to}": "${extra}" nests deeper than ${MAX_JSON_DEPTH} levels`);
      continue;
    }
    edges.push({ ...entry, from: entry.from, to: entry.to });
  }

  for (const type of ['input', 'output'] as const) {
    const found = nodes.filter((n) => n.type === type);
    if (found.length === 0) add('nodes', `Flow has no ${type} node`);
    if (found.length > 1) add('nodes', `Flow has ${found.length} ${type} nodes (${found.map((n) => `"${n.id}"`).join(', ')}); it needs exactly one`);
  }
  if (problems.length > 0) throw invalidFlow(problems);

  const built = buildGraph(nodes, edges);
  if ('cycle' in built)
    throw invalidFlow([{ param: 'edges', message: `Node "${built.cycle[0]}": part of a cycle (${built.cycle.map((id) => `"${id}"`).join(', ')})` }]);

  const inputNode = nodes.find((n) => n.type === 'input')!;
  const variables = checkInputNode(inputNode, add);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  nodes.forEach((node, index) => {
    const param = `nodes[${index}].data`;
    const at = (message: string, field?: string) => add(field ? `${param}.${field}` : param, `Node "${node.id}": ${message}`);
    checkNodeData(node, built, context, at);
    checkToolNodeData(node, built, byId, at);
    checkReferences(node, built, byId, variables, at);
    checkSecretReferences(node, context.secrets, at);
  });
  if (problems.length > 0) throw invalidFlow(problems);

  const definition: FlowDefinition = { ...raw, name: (raw.name as string).trim(), nodes, edges };
  return definition;
}

/** A node's canvas position: finite numbers only (JSON.parse turns 1e999 into Infinity), nothing else. */
function isPosition(value: unknown): value is { x: number; y: number } {
  if (!isObject(value) || Object.keys(value).length !== 2) return false;
  return typeof value.x === 'number' && Number.isFinite(value.x) && typeof value.y === 'number' && Number.isFinite(value.y);
}

/** The first key outside `known` whose value nests too deep to store and walk safely, if any. */
function tooDeepKey(entry: Json, known: ReadonlySet<string>): string | undefined {
  return Object.keys(entry).find((key) => !known.has(key) && nestsDeeperThan(entry[key], MAX_JSON_DEPTH));
}

function checkInputNode(node: FlowNode, add: (param: string, message: string) => void): InputVariable[] {
  const at = (message: string) => add(`nodes.${node.id}.data.variables`, `Node "${node.id}": ${message}`);
  const raw = node.data.variables ?? [];
  if (!Array.isArray(raw)) {
    at('"variables" must be an array');
    return [];
  }
  const seen = new Set<string>();
  const variables: InputVariable[] = [];
  for (const [index, entry] of raw.entries()) {
    if (!isObject(entry) || typeof entry.name !== 'string' || !VARIABLE_NAME.test(entry.name)) {
      at(`variable ${index} needs a "name" (letters, digits, "_", not starting with a digit)`);
      continue;
    }
    const name = entry.name;
    if (seen.has(name)) at(`duplicate variable "${name}"`);
    seen.add(name);
    if (!VARIABLE_TYPES.includes(entry.type as InputVariable['type'])) {
      at(`variable "${name}" has unknown type "${String(entry.type)}" (use ${VARIABLE_TYPES.join(', ')})`);
      continue;
    }
    const variable = entry as unknown as InputVariable;
    if (variable.type === 'enum' && (!Array.isArray(variable.values) || variable.values.length === 0))
      at(`enum variable "${name}" needs a non-empty "values" array`);
    for (const key of ['minimum', 'maximum'] as const) {
      if (variable[key] !== undefined && typeof variable[key] !== 'number') at(`variable "${name}": "${key}" must be a number`);
    }
    for (const key of ['min_length', 'max_length'] as const) {
      if (variable[key] !== undefined && !(isInt(variable[key]) && variable[key]! >= 0)) at(`variable "${name}": "${key}" must be a non-negative integer`);
    }
    if (variable.required !== undefined && typeof variable.required !== 'boolean') at(`variable "${name}": "required" must be a boolean`);
    if (variable.description !== undefined && typeof variable.description !== 'string') at(`variable "${name}": "description" must be a string`);
    if (variable.default !== undefined) {
      const wrong = checkVariable(variable, variable.default);
      if (wrong.length > 0) at(`default of "${name}" ${wrong[0]}`);
    }
    variables.push(variable);
  }
  return variables;
}

function checkNodeData(node: FlowNode, graph: FlowGraph, context: ValidationContext, at: (message: string, field?: string) => void): void {
  const data = node.data;
  const preds = graph.predecessors.get(node.id)!;
  const succs = graph.successors.get(node.id)!;
  switch (node.type) {
    case 'input':
      if (preds.length > 0) at('the input node cannot have incoming edges');
      return;
    case 'output':
      if (succs.length > 0) at('the output node cannot have outgoing edges');
      if (preds.length === 0) at('the output node needs an incoming edge');
      if (!OUTPUT_FORMATS.includes(data.format as never)) at(`"format" must be one of ${OUTPUT_FORMATS.join(', ')}`, 'format');
      if (data.format === 'json_template' && data.template === undefined) at('a json_template output needs a "template"', 'template');
      return;
    case 'template':
      if (typeof data.template !== 'string') at('"template" must be a string', 'template');
      return;
    case 'llm': {
      if (typeof data.provider !== 'string' || data.provider === '') at('"provider" must name a provider connection', 'provider');
      else if (!context.providers.has(data.provider)) at(`unknown provider "${data.provider}"`, 'provider');
      if (typeof data.model !== 'string' || data.model === '') at('"model" must be a non-empty string', 'model');
      for (const key of ['system', 'prompt']) if (data[key] !== undefined && typeof data[key] !== 'string') at(`"${key}" must be a string`, key);
      if (data.temperature !== undefined && !(typeof data.temperature === 'number' && data.temperature >= 0 && data.temperature <= 2))
        at('"temperature" must be a number from 0 to 2', 'temperature');
      if (data.max_tokens !== undefined && !(isInt(data.max_tokens) && data.max_tokens > 0)) at('"max_tokens" must be a positive integer', 'max_tokens');
      if (data.max_steps !== undefined && !(isInt(data.max_steps) && data.max_steps >= 1 && data.max_steps <= 50))
        at('"max_steps" must be an integer from 1 to 50', 'max_steps');
      if (data.memory !== undefined && !(isObject(data.memory) && isInt(data.memory.window) && data.memory.window >= 1))
        at('"memory" must be {"window": positive integer}', 'memory');
      return;
    }
    case 'switch': {
      const cases = data.cases;
      if (!Array.isArray(cases)) {
        at('"cases" must be an array', 'cases');
        return;
      }
      const targets = new Set<string>();
      // Messages number cases from 1, as the canvas draws them; params stay paths into the definition (from 0).
      for (const [index, entry] of cases.entries()) {
        const condition = isObject(entry) ? entry.if : undefined;
        if (!isObject(entry) || !isObject(condition)) {
          at(`case ${index + 1} must be {"if": {...}, "then": NODE_ID}`, `cases[${index}]`);
          continue;
        }
        if (!SWITCH_OPS.includes(condition.op as never)) at(`case ${index + 1}: "op" must be one of ${SWITCH_OPS.join(', ')}`, `cases[${index}].if.op`);
        if (!('left' in condition)) at(`case ${index + 1}: the condition needs a "left" side`, `cases[${index}].if.left`);
        if (condition.op !== 'exists' && !('right' in condition)) at(`case ${index + 1}: the condition needs a "right" side`, `cases[${index}].if.right`);
        if (condition.op === 'matches' && typeof condition.right === 'string' && !condition.right.includes('{{')) {
          try {
            new RegExp(condition.right);
          } catch {
            at(`case ${index + 1}: "${condition.right}" is not a valid regular expression`, `cases[${index}].if.right`);
          }
        }
        if (typeof entry.then !== 'string' || !succs.includes(entry.then))
          at(`case ${index + 1}: "then" must name a node this switch has an edge to`, `cases[${index}].then`);
        else targets.add(entry.then);
      }
      if (data.else !== undefined) {
        if (typeof data.else !== 'string' || !succs.includes(data.else)) at('"else" must name a node this switch has an edge to', 'else');
        else targets.add(data.else);
      }
      for (const next of succs) if (!targets.has(next)) at(`the edge to "${next}" is not a branch of any case or "else"`);
      return;
    }
  }
}

function checkReferences(
  node: FlowNode,
  graph: FlowGraph,
  byId: Map<string, FlowNode>,
  variables: InputVariable[],
  at: (message: string, field?: string) => void,
): void {
  for (const text of stringsIn(node.data)) for (const bad of malformedReferences(text)) at(`malformed reference ${bad}`);
  const refs = referencesInValue(node.type === 'input' ? {} : node.data);
  if (refs.length === 0) return;
  const ancestors = ancestorsOf(graph, node.id);
  const names = new Set(variables.map((v) => v.name));
  for (const ref of refs) {
    // Secret references have their own rules (checkSecretReferences).
    if (ref.root === 'metadata' || ref.root === SECRETS_ROOT || (ref.root === 'args' && node.type === 'tool')) continue;
    if (ref.root === 'input' && !byId.has('input')) {
      if (!names.has(ref.path[0])) at(`unknown reference ${ref.raw}: the input node has no variable "${ref.path[0]}"`);
      continue;
    }
    const target = byId.get(ref.root);
    if (!target) {
      at(`unknown reference ${ref.raw}: no node "${ref.root}"`);
      continue;
    }
    if (target.type === 'input') {
      if (!names.has(ref.path[0])) at(`unknown reference ${ref.raw}: the input node has no variable "${ref.path[0]}"`);
      continue;
    }
    if (!ancestors.has(target.id)) {
      at(`unknown reference ${ref.raw}: node "${target.id}" does not run before "${node.id}" (add an edge)`);
      continue;
    }
    const fields = NODE_OUTPUT_FIELDS[target.type];
    if (fields !== 'any' && !fields.includes(ref.path[0]))
      at(`unknown reference ${ref.raw}: a ${target.type} node has no field "${ref.path[0]}" (it has ${fields.join(', ')})`);
  }
}
