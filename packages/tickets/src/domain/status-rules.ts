import { ANSWER_BUDGET, AnswerRoom, answerCost, entryCost, fillInTurns, type Cost } from './answer-budget.ts';
import { DOCUMENT_CLIP, clip } from './text-rules.ts';

/**
 * Room get_project_status keeps for the ticket indexes before it shortens the document list (about 100 index
 * entries): documents stay complete unless listing them would leave the indexes less than this.
 */
export const INDEX_FLOOR: Cost = { text: 10_000, response: 22_000 };

/** A ticket of a column's index, with what decides whether a cut index keeps it. */
export interface IndexedTicket<E> {
  entry: E;
  number: number;
  updatedAt: string;
  completedAt: string | null;
}

/** A column's index: its tickets (the whole index, or the ones a cut index could keep) and how many it has. */
export interface ColumnIndex<E> {
  isDone: boolean;
  tickets: ReadonlyArray<IndexedTicket<E>>;
  /** The column's ticket_count. */
  total: number;
}

/** The shortest index entry there can be: a two-letter key, a one-character title, the shortest type and priority. */
const SMALLEST_ENTRY = entryCost({ key: 'AA-1', title: 'x', ticket_type: 'bug', priority: 'low' });

/** Most index entries an answer can hold: a project with more tickets needs no look at their titles to know its index must be cut. */
export const MOST_INDEX_ENTRIES = Math.floor(Math.min(ANSWER_BUDGET.text / SMALLEST_ENTRY.text, ANSWER_BUDGET.response / SMALLEST_ENTRY.response));

/**
 * How many of its preferred tickets each column needs at most for cutIndexes, given the columns' ticket counts:
 * taking turns, no column keeps more than the level at which all columns together reach MOST_INDEX_ENTRIES
 * (plus the one of an unfinished round). A large project reads only these, not its whole index.
 */
export function candidatesPerColumn(counts: readonly number[], most = MOST_INDEX_ENTRIES): number[] {
  let level = 0;
  while (counts.reduce((sum, count) => sum + Math.min(count, level + 1), 0) <= most && counts.some((count) => count > level)) level++;
  return counts.map((count) => Math.min(count, level + 1));
}

/**
 * The order in which a cut index keeps tickets: an open column its most recently updated, a done column its
 * most recently completed (what an agent starting a session most likely asks about); ties by the higher number.
 */
export function keepOrder(isDone: boolean): (a: IndexedTicket<unknown>, b: IndexedTicket<unknown>) => number {
  if (isDone) return (a, b) => compareDesc(a.completedAt ?? '', b.completedAt ?? '') || b.number - a.number;
  return (a, b) => compareDesc(a.updatedAt, b.updatedAt) || b.number - a.number;
}

function compareDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

/**
 * Cuts the column indexes to the room: the columns take turns keeping their preferred tickets (keepOrder)
 * until the next one does not fit. Each column's kept entries come back by number, as a whole index does,
 * with `truncated` when some of its `total` were left out.
 */
export function cutIndexes<E>(columns: ReadonlyArray<ColumnIndex<E>>, room: AnswerRoom): Array<{ entries: E[]; truncated: boolean }> {
  const preferred = columns.map((column) => [...column.tickets].sort(keepOrder(column.isDone)));
  const kept = fillInTurns(
    preferred.map((tickets) => tickets.map((ticket) => ticket.entry)),
    room,
  );
  return preferred.map((tickets, i) => ({
    entries: tickets
      .slice(0, kept[i])
      .sort((a, b) => a.number - b.number)
      .map((ticket) => ticket.entry),
    truncated: kept[i] < columns[i].total,
  }));
}

/** A document as get_project_status can list it: whole, or compact (slug, title, doc_type). */
export interface StatusDocument<D> {
  full: D;
  compact: D;
  /** The README whose content the status shows: kept first when the list is cut. */
  isReadme: boolean;
  updatedAt: string;
}

/** How the documents of a cut get_project_status are listed. */
export interface ChosenDocuments<D> {
  entries: D[];
  form: 'full' | 'compact';
  /** Some documents were left out (the list is compact too). */
  truncated: boolean;
}

function totalCost(entries: readonly unknown[]): Cost {
  const total = { text: 0, response: 0 };
  for (const entry of entries) {
    const cost = entryCost(entry);
    total.text += cost.text;
    total.response += cost.response;
  }
  return total;
}

/**
 * The document list of a status answer that must be cut, within `room`: every document as it is when they
 * fit; else every document in compact form; else the README and then the most recently updated documents in
 * compact form, as many as fit, listed in their usual order.
 */
export function chooseDocuments<D>(documents: ReadonlyArray<StatusDocument<D>>, room: Cost): ChosenDocuments<D> {
  const fits = (entries: readonly D[]) => new AnswerRoom({ text: 0, response: 0 }, room).fits(totalCost(entries));
  const full = documents.map((doc) => doc.full);
  if (fits(full)) return { entries: full, form: 'full', truncated: false };
  const compact = documents.map((doc) => doc.compact);
  if (fits(compact)) return { entries: compact, form: 'compact', truncated: false };
  const order = documents.map((doc, index) => ({ doc, index }));
  order.sort((a, b) => Number(b.doc.isReadme) - Number(a.doc.isReadme) || compareDesc(a.doc.updatedAt, b.doc.updatedAt) || a.index - b.index);
  const left = new AnswerRoom({ text: 0, response: 0 }, room);
  const kept = new Set<number>();
  for (const { doc, index } of order) {
    if (!left.take(entryCost(doc.compact))) break;
    kept.add(index);
  }
  return { entries: documents.filter((_, index) => kept.has(index)).map((doc) => doc.compact), form: 'compact', truncated: true };
}

/**
 * What the project description of a cut get_project_status may cost: as much as DOCUMENT_CLIP (3000)
 * characters that JSON writes as they are, like the README's excerpt. A description of up to 10,000
 * characters (settings-rules.ts) stays whole unless the rest of the answer needs the room.
 */
export const DESCRIPTION_ROOM: Cost = answerCost('x'.repeat(DOCUMENT_CLIP));

/**
 * The project description of a status answer that must be cut: its first DOCUMENT_CLIP characters, or
 * fewer when escapes (quotes, line breaks, control characters) make those cost more than DESCRIPTION_ROOM.
 */
export function clipDescription(description: string): { text: string; truncated: boolean } {
  const fits = (text: string) => new AnswerRoom({ text: 0, response: 0 }, DESCRIPTION_ROOM).fits(answerCost(text));
  const first = clip(description, DOCUMENT_CLIP);
  if (fits(first.text)) return first;
  // The longest prefix (in code points) that fits: the cost only grows with the length.
  let fitting = 0;
  let over = DOCUMENT_CLIP;
  while (over - fitting > 1) {
    const middle = Math.floor((fitting + over) / 2);
    if (fits(clip(description, middle).text)) fitting = middle;
    else over = middle;
  }
  return { text: clip(description, fitting).text, truncated: true };
}
