import { AppError } from '@switchboard/core';

/**
 * Where the next page of a listing starts: after the last entry of the previous page, by the listing's own
 * order (keyset paging: an entry created or deleted meanwhile never shifts the rest, unlike an offset).
 */
export type PagePosition =
  /** list_tickets: most recently updated first, then by number (highest first). */
  | { tool: 'list_tickets'; updatedAt: string; number: number }
  /** list_tickets with order "board": column by column, each by rank, then by number. */
  | { tool: 'list_tickets'; column: string; rank: number; number: number }
  /** get_all_tickets, still in its tickets (by number). */
  | { tool: 'get_all_tickets'; phase: 'tickets'; number: number }
  /** get_all_tickets, in its documents (by title, then slug); without `after`, from the first document. */
  | { tool: 'get_all_tickets'; phase: 'documents'; after?: { title: string; slug: string } }
  /** list_documents (by title, then slug). */
  | { tool: 'list_documents'; after: { title: string; slug: string } }
  /** list_members (by email, unique). */
  | { tool: 'list_members'; after: string };

/** Tools that page with a cursor. */
export type PagedTool = PagePosition['tool'];

type Fields = Array<string | number>;

function fieldsOf(position: PagePosition): Fields {
  switch (position.tool) {
    case 'list_tickets':
      return 'column' in position ? ['lb', position.column, position.rank, position.number] : ['lt', position.updatedAt, position.number];
    case 'get_all_tickets':
      if (position.phase === 'tickets') return ['at', 't', position.number];
      return position.after ? ['at', 'd', position.after.title, position.after.slug] : ['at', 'd'];
    case 'list_documents':
      return ['ld', position.after.title, position.after.slug];
    case 'list_members':
      return ['lm', position.after];
  }
}

/** The opaque next_cursor of a page (base64url of a small JSON array). */
export function encodeCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify(fieldsOf(position))).toString('base64url');
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

function positionOf(fields: unknown): PagePosition | undefined {
  if (!Array.isArray(fields)) return undefined;
  const [tag, a, b, c] = fields;
  if (tag === 'lt' && fields.length === 3 && isString(a) && isNumber(b)) return { tool: 'list_tickets', updatedAt: a, number: b };
  if (tag === 'lb' && fields.length === 4 && isString(a) && Number.isSafeInteger(b) && isNumber(c))
    return { tool: 'list_tickets', column: a, rank: b as number, number: c };
  if (tag === 'at' && a === 't' && fields.length === 3 && isNumber(b)) return { tool: 'get_all_tickets', phase: 'tickets', number: b };
  if (tag === 'at' && a === 'd' && fields.length === 2) return { tool: 'get_all_tickets', phase: 'documents' };
  if (tag === 'at' && a === 'd' && fields.length === 4 && isString(b) && isString(c))
    return { tool: 'get_all_tickets', phase: 'documents', after: { title: b, slug: c } };
  if (tag === 'ld' && fields.length === 3 && isString(a) && isString(b)) return { tool: 'list_documents', after: { title: a, slug: b } };
  if (tag === 'lm' && fields.length === 2 && isString(a)) return { tool: 'list_members', after: a };
  return undefined;
}

/**
 * Reads the cursor a caller sent back to `tool`; anything but a next_cursor that tool answered is refused,
 * saying how to page.
 */
export function decodeCursor<T extends PagedTool>(tool: T, raw: string): Extract<PagePosition, { tool: T }> {
  let position: PagePosition | undefined;
  try {
    position = positionOf(JSON.parse(Buffer.from(raw.trim(), 'base64url').toString('utf8')));
  } catch {
    position = undefined;
  }
  if (position?.tool !== tool) throw cursorRefusal(tool, raw);
  return position as Extract<PagePosition, { tool: T }>;
}

/** The refusal of a cursor that is not one `tool` answered (or not for the call's order and filters), saying how to page. */
export function cursorRefusal(tool: PagedTool, raw: string): AppError {
  return new AppError(
    'invalid_request',
    `cursor "${raw.length > 80 ? `${raw.slice(0, 80)}…` : raw}" is not a cursor of ${tool}. Pass the next_cursor of the previous ${tool} answer unchanged, or leave cursor out to start from the first page.`,
    { field: 'cursor' },
  );
}
