import { sql, type ExpressionBuilder, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { DocumentsTable, TicketsDatabase } from './tables.ts';
import type { Db } from './project-store.ts';

/** A document row. */
export type DocumentRow = Omit<Selectable<DocumentsTable>, 'seq'>;

const DOCUMENT_COLUMNS = ['id', 'project_id', 'slug', 'title', 'content', 'doc_type', 'created_at', 'updated_at'] as const;
const META_COLUMNS = ['id', 'project_id', 'slug', 'title', 'doc_type', 'created_at', 'updated_at'] as const;

/** A project's document by slug or id. */
export async function documentBySlugOrId(db: Db, projectId: string, ref: string): Promise<DocumentRow | undefined> {
  const text = ref.trim();
  return db
    .selectFrom('documents')
    .select(DOCUMENT_COLUMNS)
    .where('project_id', '=', projectId)
    .where((eb) => eb.or([eb('slug', '=', text.toLowerCase()), eb('id', '=', text.toLowerCase())]))
    .executeTakeFirst();
}

/** True when the slug is taken in the project. */
export async function slugTaken(db: Db, projectId: string, slug: string): Promise<boolean> {
  const row = await db.selectFrom('documents').select('id').where('project_id', '=', projectId).where('slug', '=', slug).executeTakeFirst();
  return row !== undefined;
}

/** Inserts a document. */
export async function insertDocument(db: Db, row: Insertable<DocumentsTable>): Promise<void> {
  await db.insertInto('documents').values(row).execute();
}

/** Changes a document. */
export async function updateDocumentRow(db: Db, id: string, changes: Updateable<DocumentsTable>): Promise<void> {
  await db.updateTable('documents').set(changes).where('id', '=', id).execute();
}

/**
 * Sets a document's content only if it still is `expected` (compare and set: a write made since it was read
 * makes this answer false and change nothing).
 */
export async function replaceDocumentContent(db: Db, id: string, expected: string, content: string, updatedAt: string): Promise<boolean> {
  const result = await db
    .updateTable('documents')
    .set({ content, updated_at: updatedAt })
    .where('id', '=', id)
    .where('content', '=', expected)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes a document. */
export async function deleteDocumentRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('documents').where('id', '=', id).execute();
}

/** A document's place in the title order of the document lists (the slug is unique in a project, so it breaks ties). */
export interface DocumentPosition {
  title: string;
  slug: string;
}

/** Documents after `after` in the order by title, then slug. */
function afterPosition(after: DocumentPosition) {
  return (eb: ExpressionBuilder<TicketsDatabase, 'documents'>) =>
    eb.or([eb('title', '>', after.title), eb.and([eb('title', '=', after.title), eb('slug', '>', after.slug)])]);
}

/** A page of a project's documents without content, by title then slug, after `after`; optionally of one type. */
export async function listDocumentMeta(db: Db, projectId: string, options: { docType?: string; after?: DocumentPosition; limit?: number } = {}) {
  let query = db.selectFrom('documents').select(META_COLUMNS).where('project_id', '=', projectId);
  if (options.docType) query = query.where('doc_type', '=', options.docType);
  if (options.after) query = query.where(afterPosition(options.after));
  query = query.orderBy('title').orderBy('slug');
  return options.limit === undefined ? query.execute() : query.limit(options.limit).execute();
}

/**
 * A page of a project's documents by title then slug, after `after`, with only the first `contentChars`
 * characters of their content (both engines count characters, as clip() does): get_all_tickets shows no more,
 * and a page need not read megabytes of pages it clips.
 */
export async function documentExcerpts(db: Db, projectId: string, options: { after?: DocumentPosition; limit: number; contentChars: number }) {
  let query = db
    .selectFrom('documents')
    .select([...META_COLUMNS, sql<string>`substr(content, 1, ${sql.lit(options.contentChars)})`.as('content')])
    .where('project_id', '=', projectId);
  if (options.after) query = query.where(afterPosition(options.after));
  return query.orderBy('title').orderBy('slug').limit(options.limit).execute();
}

/** Slug, title and type of a project's documents with these ids (search hits). */
export async function documentsByIds(db: Db, projectId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('documents').select(['id', 'slug', 'title', 'doc_type']).where('project_id', '=', projectId).where('id', 'in', ids).execute();
}

/** A project's documents with content, by title. */
export async function listDocuments(db: Db, projectId: string): Promise<DocumentRow[]> {
  return db.selectFrom('documents').select(DOCUMENT_COLUMNS).where('project_id', '=', projectId).orderBy('title').orderBy('slug').execute();
}
