import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DocumentsTable } from './tables.ts';
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

/** Deletes a document. */
export async function deleteDocumentRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('documents').where('id', '=', id).execute();
}

/** A project's documents without content, by title; optionally of one type. */
export async function listDocumentMeta(db: Db, projectId: string, docType?: string) {
  let query = db.selectFrom('documents').select(META_COLUMNS).where('project_id', '=', projectId);
  if (docType) query = query.where('doc_type', '=', docType);
  return query.orderBy('title').orderBy('slug').execute();
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
