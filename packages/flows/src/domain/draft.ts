// A flow's draft (design/flows.md, "Drafts"): whatever the builder holds, valid or not, with what is wrong with it.
import { FlowsError, type ProblemDetail } from './errors.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';
import { validateDefinition, type ValidationContext } from './flow-validation.ts';

/** One problem of a draft, by node (null: the flow as a whole, or an edge). */
export interface DraftProblem {
  node: string | null;
  message: string;
}

/** A draft as a PUT gives it. */
export interface DraftBody {
  definition: Record<string, unknown>;
  baseVersion: number | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function badRequest(message: string, param: string): FlowsError {
  return new FlowsError('invalid_request', message, 'invalid_request', { param });
}

/**
 * Checks a draft's body: `definition` must be a JSON object (anything inside
 * it may be wrong: that is what drafts are for) no deeper than the service
 * walks; `base_version`, when given, a positive integer.
 */
export function parseDraftBody(body: unknown): DraftBody {
  if (!isObject(body) || !isObject(body.definition))
    throw badRequest('A draft is {"definition": {...}, "base_version"?: N}: "definition" must be a JSON object', 'definition');
  if (nestsDeeperThan(body.definition, MAX_JSON_DEPTH)) throw badRequest(`The draft's definition nests deeper than ${MAX_JSON_DEPTH} levels`, 'definition');
  const base = body.base_version;
  if (base !== undefined && base !== null && !(Number.isInteger(base) && (base as number) >= 1)) {
    throw badRequest('"base_version" must be a positive integer: the version the draft was edited from', 'base_version');
  }
  return { definition: body.definition, baseVersion: (base as number | undefined) ?? null };
}

/** The node a validation problem is about: its param names the node by index or id. */
function nodeOf(detail: ProblemDetail, definition: Record<string, unknown>): string | null {
  const byIndex = /^nodes\[(\d+)\]/.exec(detail.param);
  if (byIndex) {
    const node = Array.isArray(definition.nodes) ? definition.nodes[Number(byIndex[1])] : undefined;
    return isObject(node) && typeof node.id === 'string' ? node.id : null;
  }
  const byId = /^nodes\.([^.]+)\./.exec(detail.param);
  return byId ? byId[1] : null;
}

/** What Save would refuse in a draft, by node: the same checks as a save (agent cycles aside, which a run refuses). */
export function draftProblems(definition: Record<string, unknown>, context: ValidationContext): DraftProblem[] {
  try {
    validateDefinition(definition, context);
    return [];
  } catch (error) {
    if (!(error instanceof FlowsError) || !Array.isArray(error.details)) throw error;
    return (error.details as ProblemDetail[]).map((detail) => ({ node: nodeOf(detail, definition), message: detail.message }));
  }
}
