// Problems of a definition, found by the server's own validation (run here, in the browser) or answered by
// the server's 422, and attached to the node each one names.
import { validateDefinition } from '../../../src/domain/flow-validation.ts';
import type { Definition } from '../canvas/definition.ts';

/** One problem as the API lists it in `error.details`. */
export interface ProblemDetail {
  param: string;
  message: string;
}

/** A problem with the node it is about (none: the flow as a whole, or an edge). */
export interface Problem extends ProblemDetail {
  node: string | undefined;
  /** Found by the server on save (what only it knows), not by the check as you edit. */
  fromServer: boolean;
}

/** Problems listed in order, and joined per node for the node's `title`. */
export interface ProblemIndex {
  list: Problem[];
  byNode: Record<string, string>;
}

/** No problems. */
export const NO_PROBLEMS: ProblemIndex = { list: [], byNode: {} };

/**
 * Runs the server's validation (flow-validation.ts) on a definition; answers
 * its problems, none when it passes. `providers` are the connection names the
 * organization has; `secrets` its secret names (undefined while unknown: no
 * `{{secrets.NAME}}` is then reported unknown).
 */
export function checkDefinition(definition: Definition, providers: ReadonlySet<string>, secrets?: ReadonlySet<string>): ProblemDetail[] {
  try {
    validateDefinition(definition, secrets ? { providers, secrets } : { providers });
    return [];
  } catch (error) {
    const details = (error as { details?: unknown }).details;
    if (Array.isArray(details)) return details as ProblemDetail[];
    return [{ param: 'definition', message: (error as Error).message }];
  }
}

/**
 * The node a problem is about: `nodes[N]…` names the Nth node of the
 * definition that was checked, `nodes.ID…` names it by id, and messages start
 * `Node "ID": …` (a cycle, a variable of the Input node).
 */
export function problemNode(problem: ProblemDetail, definition: Pick<Definition, 'nodes'>): string | undefined {
  const byIndex = /^nodes\[(\d+)\]/.exec(problem.param);
  if (byIndex) return definition.nodes[Number(byIndex[1])]?.id;
  const byId = /^nodes\.([A-Za-z0-9_-]+)\./.exec(problem.param);
  if (byId && definition.nodes.some((n) => n.id === byId[1])) return byId[1];
  const named = /^Node "([^"]+)"/.exec(problem.message);
  if (named && definition.nodes.some((n) => n.id === named[1])) return named[1];
  return undefined;
}

/** Indexes problems of `definition` by node. */
export function indexProblems(details: readonly ProblemDetail[], definition: Pick<Definition, 'nodes'>, fromServer = false): ProblemIndex {
  const list = details.map((detail) => ({ param: detail.param, message: detail.message, node: problemNode(detail, definition), fromServer }));
  const byNode: Record<string, string> = {};
  for (const problem of list) {
    if (problem.node === undefined) continue;
    byNode[problem.node] = byNode[problem.node] ? `${byNode[problem.node]}\n${problem.message}` : problem.message;
  }
  return { list, byNode };
}
