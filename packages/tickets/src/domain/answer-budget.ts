/**
 * What a listing answer may take. MCP clients cap tool results (Claude Code keeps at most 50,000 characters of
 * one and refuses one over 25,000 tokens), and an agent's context has to hold the answer: the design gives every
 * listing tool 40,000 characters of text (content[0].text, the same JSON a REST call answers) and the whole
 * JSON-RPC response, which carries that text escaped plus the same JSON as structuredContent, 90,000. The
 * budget stays a little below both, leaving room for the JSON-RPC envelope and its id.
 */
export const ANSWER_BUDGET = { text: 39_000, response: 89_000 } as const;

/** What a piece of JSON costs: characters of the answer text, and characters of the whole MCP response. */
export interface Cost {
  text: number;
  response: number;
}

/** The cost of a JSON text in an answer: once as text, escaped inside the MCP text content, once more as structuredContent. */
function costOfJson(json: string, separator: number): Cost {
  // JSON.stringify(json) escapes the quotes and backslashes of the text (a JSON text holds no raw control characters).
  return { text: json.length + separator, response: 2 * (json.length + separator) + (JSON.stringify(json).length - 2 - json.length) };
}

/** The cost of a whole answer (its skeleton, before the entries of its lists are added). */
export function answerCost(answer: unknown): Cost {
  return costOfJson(JSON.stringify(answer), 0);
}

/** The cost of one more entry in a list of an answer: its JSON and the comma before it. */
export function entryCost(entry: unknown): Cost {
  return costOfJson(JSON.stringify(entry), 1);
}

/** The cost a value adds to an answer where `null` stood before (a next_cursor string instead of null). */
export function replacingNullCost(value: unknown): Cost {
  const cost = costOfJson(JSON.stringify(value), 0);
  return { text: cost.text - 4, response: cost.response - 8 };
}

const NOTHING: Cost = { text: 0, response: 0 };

/**
 * The room left in an answer. It starts from the answer's skeleton (everything but the entries of its lists)
 * and takes entries while they fit; costs are exact, so an answer built this way stays within ANSWER_BUDGET.
 */
export class AnswerRoom {
  private text: number;
  private response: number;

  constructor(skeleton: Cost, budget: Cost = ANSWER_BUDGET) {
    this.text = budget.text - skeleton.text;
    this.response = budget.response - skeleton.response;
  }

  /** Whether `cost` fits, with `trailing` (e.g. the next_cursor that would follow it) fitting too. */
  fits(cost: Cost, trailing: Cost = NOTHING): boolean {
    return cost.text + trailing.text <= this.text && cost.response + trailing.response <= this.response;
  }

  /** Takes `cost` if it fits with `trailing`; false (and nothing taken) when it does not. */
  take(cost: Cost, trailing: Cost = NOTHING): boolean {
    if (!this.fits(cost, trailing)) return false;
    this.text -= cost.text;
    this.response -= cost.response;
    return true;
  }

  /** Room left, as a cost. */
  left(): Cost {
    return { text: this.text, response: this.response };
  }
}

/**
 * How many entries of each list fit the room when the lists take turns, one entry each per round, in list
 * order; the first entry that does not fit ends the filling, so every cut list keeps about as many entries as
 * the others. Each list is given in the order its entries are kept (the preferred first).
 */
export function fillInTurns(lists: ReadonlyArray<readonly unknown[]>, room: AnswerRoom): number[] {
  const kept = lists.map(() => 0);
  for (let round = 0; ; round++) {
    let anyLeft = false;
    for (let i = 0; i < lists.length; i++) {
      if (round >= lists[i].length) continue;
      anyLeft = true;
      if (!room.take(entryCost(lists[i][round]))) return kept;
      kept[i]++;
    }
    if (!anyLeft) return kept;
  }
}
