import type { BoardContext } from './board-context.ts';
import { sortColumns, type BoardColumn } from '../domain/board-rules.ts';
import { ticketKey } from '../domain/ticket-rules.ts';
import { DOCUMENT_CLIP, RECENT_TICKETS, clip } from '../domain/text-rules.ts';
import { ANSWER_BUDGET, AnswerRoom, answerCost, entryCost, type Cost } from '../domain/answer-budget.ts';
import {
  INDEX_FLOOR,
  MOST_INDEX_ENTRIES,
  candidatesPerColumn,
  chooseDocuments,
  clipDescription,
  cutIndexes,
  type ChosenDocuments,
  type ColumnIndex,
  type IndexedTicket,
  type StatusDocument,
} from '../domain/status-rules.ts';
import { listLabels, projectColumns } from '../store/project-store.ts';
import { listDocuments } from '../store/document-store.ts';
import { columnIndexCandidates, recentTickets, statusIndex, ticketTallies } from '../store/ticket-store.ts';
import { presentColumn, presentDocumentMeta, presentLabel, presentProject } from './presenters.ts';

/** An entry of a column's ticket index. */
interface IndexEntry {
  key: string;
  title: string;
  ticket_type: string;
  priority: string;
}

/** A column as get_project_status shows it; `index_truncated` only on a cut index. */
type StatusColumn = ReturnType<typeof presentColumn> & { index_truncated?: true; tickets: IndexEntry[] };

/** The hint of a cut answer that names the call paging through a column. */
const INDEX_HINT =
  'Columns with "index_truncated": true list only part of their tickets (an open column its most recently updated, a done column its most recently completed); their ticket_count is exact. To see every ticket of such a column call list_tickets with column_name, then again with cursor set to each next_cursor until next_cursor is null.';

function documentsHint(documents: ChosenDocuments<unknown>, total: number): string | undefined {
  if (documents.truncated) {
    return `documents lists ${documents.entries.length} of the ${total} documents (the README first, then the most recently updated), by slug, title and doc_type; list_documents pages through all of them.`;
  }
  if (documents.form === 'compact')
    return 'documents are listed by slug, title and doc_type only: list_documents gives their dates, get_document their content.';
  return undefined;
}

function descriptionHint(projectKey: string): string {
  return `project.description shows only its beginning ("description_truncated": true); GET /api/projects/${projectKey}/settings with the same token answers all of it.`;
}

/** The hint of an answer that had to be cut: what was left out and which call shows it; undefined when nothing was. */
function statusHint(cut: { index: boolean; documents?: ChosenDocuments<unknown>; totalDocuments: number; descriptionOf?: string }): string | undefined {
  const parts = [
    cut.descriptionOf === undefined ? undefined : descriptionHint(cut.descriptionOf),
    cut.index ? INDEX_HINT : undefined,
    cut.documents && documentsHint(cut.documents, cut.totalDocuments),
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function minus(a: Cost, b: Cost): Cost {
  return { text: a.text - b.text, response: a.response - b.response };
}

/** The cost of all entries, or `cap` as soon as they pass it (ten thousand entries need not be measured to know). */
function costUpTo(entries: Iterable<unknown>, cap: Cost): Cost {
  const total = { text: 0, response: 0 };
  for (const entry of entries) {
    const cost = entryCost(entry);
    total.text += cost.text;
    total.response += cost.response;
    if (total.text >= cap.text || total.response >= cap.response) return cap;
  }
  return total;
}

/** Tickets per column name, type and priority, keys in order of first appearance (by ticket number). */
class Tallies {
  readonly byColumnName = new Map<string, number>();
  readonly byType = new Map<string, number>();
  readonly byPriority = new Map<string, number>();
  readonly byColumnId = new Map<string, number>();
  total = 0;
  completed = 0;

  constructor(private readonly columns: ReadonlyMap<string, BoardColumn>) {}

  /** Counts `n` tickets of one column, type and priority; groups must come in order of their lowest number. */
  add(columnId: string, ticketType: string, priority: string, n = 1): void {
    const column = this.columns.get(columnId);
    if (column?.isDone) this.completed += n;
    this.total += n;
    const name = column?.name ?? '?';
    this.byColumnName.set(name, (this.byColumnName.get(name) ?? 0) + n);
    this.byType.set(ticketType, (this.byType.get(ticketType) ?? 0) + n);
    this.byPriority.set(priority, (this.byPriority.get(priority) ?? 0) + n);
    this.byColumnId.set(columnId, (this.byColumnId.get(columnId) ?? 0) + n);
  }

  stats() {
    return {
      total: this.total,
      open: this.total - this.completed,
      completed: this.completed,
      by_column: Object.fromEntries(this.byColumnName),
      by_type: Object.fromEntries(this.byType),
      by_priority: Object.fromEntries(this.byPriority),
    };
  }
}

type IndexRow = Awaited<ReturnType<typeof statusIndex>>[number];

/**
 * get_project_status: the project, stats, every board with its columns and ticket index, the 5 most recently
 * updated tickets, documents (metadata; the README's first 3000 characters when Auto-Summary is on) and labels.
 * An answer that would pass ANSWER_BUDGET is cut (see cutStatus); any other answers exactly as it always did.
 * A project with more tickets than an answer can index reads only the tallies and the tickets a cut index
 * could keep, not its whole index.
 */
export async function projectStatus(ctx: BoardContext) {
  const [columns, tallied, recent, documents, labels] = await Promise.all([
    projectColumns(ctx.db, ctx.project.id),
    ticketTallies(ctx.db, ctx.project.id),
    recentTickets(ctx.db, ctx.project.id, RECENT_TICKETS),
    listDocuments(ctx.db, ctx.project.id),
    listLabels(ctx.db, ctx.project.id),
  ]);
  const byColumn = new Map(columns.map((column) => [column.id, column]));
  const sorted = sortColumns(columns);
  const keyOf = (number: number) => ticketKey(ctx.project.key, number);
  const indexed = (row: IndexRow): IndexedTicket<IndexEntry> => ({
    entry: { key: keyOf(row.number), title: row.title, ticket_type: row.ticket_type, priority: row.priority },
    number: row.number,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
  });
  const total = tallied.reduce((sum, group) => sum + group.n, 0);
  const tallies = new Tallies(byColumn);
  const ticketsByColumn = new Map<string, Array<IndexedTicket<IndexEntry>>>();
  let whole: boolean;
  if (total <= MOST_INDEX_ENTRIES) {
    // The whole index may fit: read it, and tally the very rows it shows.
    whole = true;
    for (const row of await statusIndex(ctx.db, ctx.project.id)) {
      tallies.add(row.column_id, row.ticket_type, row.priority);
      let list = ticketsByColumn.get(row.column_id);
      if (!list) {
        list = [];
        ticketsByColumn.set(row.column_id, list);
      }
      list.push(indexed(row));
    }
  } else {
    whole = false;
    for (const group of tallied.sort((a, b) => a.first - b.first)) tallies.add(group.column_id, group.ticket_type, group.priority, group.n);
    const counts = sorted.map((column) => tallies.byColumnId.get(column.id) ?? 0);
    const wanted = candidatesPerColumn(counts);
    const candidates = await Promise.all(
      sorted.map((column, i) => (wanted[i] > 0 ? columnIndexCandidates(ctx.db, ctx.project.id, column.id, column.isDone, wanted[i]) : [])),
    );
    for (const [i, column] of sorted.entries()) ticketsByColumn.set(column.id, candidates[i].map(indexed));
  }
  const autoSummary = ctx.project.auto_summary === 1;
  const readme = documents.find((doc) => doc.doc_type === 'readme');
  const statusDocuments: Array<StatusDocument<object>> = documents.map((doc) => {
    const meta = presentDocumentMeta(doc);
    const compact = { slug: doc.slug, title: doc.title, doc_type: doc.doc_type };
    if (!autoSummary || doc !== readme) return { full: meta, compact, isReadme: false, updatedAt: doc.updated_at };
    const clipped = clip(doc.content, DOCUMENT_CLIP);
    const content = { content: clipped.text, content_truncated: clipped.truncated };
    return { full: { ...meta, ...content }, compact: { ...compact, ...content }, isReadme: true, updatedAt: doc.updated_at };
  });
  const fixed = {
    project: presentProject(ctx.project),
    stats: tallies.stats(),
    recent_tickets: recent.map((row) => ({
      key: keyOf(row.number),
      title: row.title,
      ticket_type: row.ticket_type,
      priority: row.priority,
      column: byColumn.get(row.column_id)?.name ?? null,
      parent: row.parent_number === null ? null : keyOf(row.parent_number),
      created_at: row.created_at,
      updated_at: row.updated_at,
      completed_at: row.completed_at,
    })),
    labels: labels.map(presentLabel),
  };
  const indexes = sorted.map((column) => ({
    column,
    isDone: column.isDone,
    tickets: ticketsByColumn.get(column.id) ?? [],
    total: tallies.byColumnId.get(column.id) ?? 0,
  }));
  if (whole) {
    const columnsOut = indexes.map((entry): StatusColumn => ({ ...presentColumn(entry.column, entry.total), tickets: [] }));
    const answer = statusAnswer(fixed, columnsOut, { entries: statusDocuments.map((doc) => doc.full) });
    const room = new AnswerRoom(answerCost(answer));
    if (indexes.every((entry) => entry.tickets.every((ticket) => room.take(entryCost(ticket.entry))))) {
      for (const [i, entry] of indexes.entries()) columnsOut[i].tickets.push(...entry.tickets.map((ticket) => ticket.entry));
      return answer;
    }
  }
  return cutStatus(fixed, indexes, statusDocuments);
}

type Fixed = Parameters<typeof statusAnswer>[0];

/**
 * A status answer cut to ANSWER_BUDGET. Everything but the ticket indexes stays complete: stats, every board and
 * column with its exact ticket_count, the recent tickets and labels (settings-rules.ts bounds them so that they
 * always fit); the project description unless it would leave the indexes less than INDEX_FLOOR (then its beginning,
 * DESCRIPTION_ROOM); and the documents unless listing them would leave the indexes less than INDEX_FLOOR (then
 * compact, then only the README and the most recently updated). The columns share what is left (cutIndexes); a
 * cut column says "index_truncated": true and the top-level "hint" names the call that pages through it.
 */
function cutStatus(fixed: Fixed, indexes: Array<ColumnIndex<IndexEntry> & { column: BoardColumn }>, documents: Array<StatusDocument<object>>) {
  // Every column that has tickets may be cut: their flags and the longest hint are counted before the indexes are filled.
  const columns = indexes.map((entry): StatusColumn => {
    const column = presentColumn(entry.column, entry.total);
    return entry.total > 0 ? { ...column, index_truncated: true, tickets: [] } : { ...column, tickets: [] };
  });
  const key = fixed.project.key;
  const longest = (descriptionCut: boolean) =>
    statusHint({
      index: true,
      documents: { entries: documents, form: 'compact', truncated: true },
      totalDocuments: documents.length,
      descriptionOf: descriptionCut ? key : undefined,
    });
  const indexNeeds = costUpTo(
    indexes.flatMap((entry) => entry.tickets.map((ticket) => ticket.entry)),
    INDEX_FLOOR,
  );
  const noDocuments = { entries: [], total: documents.length };
  const roomy = new AnswerRoom(answerCost(statusAnswer(fixed, columns, noDocuments, longest(false)))).fits(indexNeeds);
  const clipped = roomy ? undefined : clipDescription(fixed.project.description);
  const descriptionCut = clipped?.truncated === true;
  const { name, settings } = fixed.project;
  const shown: Fixed = descriptionCut ? { ...fixed, project: { key, name, description: clipped.text, description_truncated: true, settings } } : fixed;
  const longestHint = longest(descriptionCut);
  const withoutDocuments = statusAnswer(shown, columns, noDocuments, longestHint);
  const chosen = chooseDocuments(documents, minus(minus(ANSWER_BUDGET, answerCost(withoutDocuments)), indexNeeds));
  const listed = { entries: chosen.entries, total: chosen.truncated ? documents.length : undefined };
  const cut = cutIndexes(indexes, new AnswerRoom(answerCost(statusAnswer(shown, columns, listed, longestHint))));
  cut.forEach((kept, i) => {
    columns[i].tickets = kept.entries;
    if (!kept.truncated) delete columns[i].index_truncated;
  });
  const hint = statusHint({
    index: cut.some((kept) => kept.truncated),
    documents: chosen.form === 'full' ? undefined : chosen,
    totalDocuments: documents.length,
    descriptionOf: descriptionCut ? key : undefined,
  });
  return statusAnswer(shown, columns, listed, hint);
}

/**
 * The answer in its order: project, stats, boards, recent_tickets, documents (documents_truncated and
 * documents_total when some were left out), labels, and the hint of a cut answer.
 */
function statusAnswer(
  fixed: {
    /** The project; a cut answer may shorten its description and say so. */
    project: ReturnType<typeof presentProject> & { description_truncated?: true };
    stats: object;
    recent_tickets: object[];
    labels: object[];
  },
  columns: StatusColumn[],
  documents: { entries: object[]; total?: number },
  hint?: string,
) {
  const boards: Array<{ name: string; columns: StatusColumn[] }> = [];
  for (const column of columns) {
    let board = boards.find((candidate) => candidate.name === column.board_name);
    if (!board) {
      board = { name: column.board_name, columns: [] };
      boards.push(board);
    }
    board.columns.push(column);
  }
  return {
    project: fixed.project,
    stats: fixed.stats,
    boards,
    recent_tickets: fixed.recent_tickets,
    documents: documents.entries,
    ...(documents.total === undefined ? {} : { documents_truncated: true as const, documents_total: documents.total }),
    labels: fixed.labels,
    ...(hint === undefined ? {} : { hint }),
  };
}
