import { randomUUID } from 'node:crypto';
import { AppError } from '@switchboard/core';
import type { BoardContext } from './board-context.ts';
import { slugify, validateSlug } from '../domain/text-rules.ts';
import type { DocType } from '../domain/vocabulary.ts';
import {
  deleteDocumentRow,
  documentBySlugOrId,
  insertDocument,
  replaceDocumentContent,
  slugTaken,
  updateDocumentRow,
  type DocumentRow,
} from '../store/document-store.ts';
import { toggleTaskIn, type TaskToggleRequest } from '../domain/task-list.ts';
import { presentDocument } from './presenters.ts';
import { inTransaction } from './transaction.ts';

async function requireDocument(ctx: BoardContext, ref: string) {
  const row = await documentBySlugOrId(ctx.db, ctx.project.id, ref);
  if (!row) throw new AppError('not_found', `Document "${ref}" not found in project ${ctx.project.key}. Use list_documents to see the slugs.`);
  return row;
}

/** get_document: a document by slug or id. */
export async function getDocument(ctx: BoardContext, input: { doc_id: string }) {
  return presentDocument(await requireDocument(ctx, input.doc_id));
}

/** create_document: a page; the slug comes from the title when not given (a taken given slug is a conflict). */
export async function createDocument(ctx: BoardContext, input: { title: string; content?: string; slug?: string; doc_type?: DocType }) {
  const now = ctx.now();
  const id = randomUUID();
  let slug: string;
  if (input.slug !== undefined) {
    slug = validateSlug(input.slug);
    if (await slugTaken(ctx.db, ctx.project.id, slug)) {
      throw new AppError('conflict', `The slug "${slug}" is already taken in project ${ctx.project.key}. Choose another slug or update_document "${slug}".`);
    }
  } else {
    const base = slugify(input.title);
    slug = base;
    for (let n = 2; await slugTaken(ctx.db, ctx.project.id, slug); n++) slug = `${base}-${n}`;
  }
  const row: DocumentRow = {
    id,
    project_id: ctx.project.id,
    slug,
    title: input.title.trim(),
    content: input.content ?? '',
    doc_type: input.doc_type ?? 'wiki',
    created_at: now,
    updated_at: now,
  };
  try {
    await inTransaction(ctx, async (trx, log) => {
      await insertDocument(trx, row);
      log.document('created', slug, now);
    });
  } catch (error) {
    // Two creations racing for one slug: the unique index decides.
    if (await slugTaken(ctx.db, ctx.project.id, slug)) throw new AppError('conflict', `The slug "${slug}" is already taken in project ${ctx.project.key}.`);
    throw error;
  }
  return presentDocument(row);
}

/** update_document: changes title, content (and optionally doc_type), or one task list item of the content. */
export async function updateDocument(
  ctx: BoardContext,
  input: { doc_id: string; title?: string; content?: string; doc_type?: DocType; toggle_task?: TaskToggleRequest },
) {
  if (input.toggle_task) return toggleDocumentTask(ctx, input, input.toggle_task);
  const row = await requireDocument(ctx, input.doc_id);
  const changes = {
    ...(input.title !== undefined ? { title: input.title.trim() } : {}),
    ...(input.content !== undefined ? { content: input.content } : {}),
    ...(input.doc_type !== undefined ? { doc_type: input.doc_type } : {}),
  };
  if (Object.keys(changes).length === 0) return presentDocument(row);
  const now = ctx.now();
  await inTransaction(ctx, async (trx, log) => {
    await updateDocumentRow(trx, row.id, { ...changes, updated_at: now });
    log.document('updated', row.slug, now);
  });
  return presentDocument({ ...row, ...changes, updated_at: now });
}

/**
 * update_document with toggle_task: the one line changes in the content as it is stored at that moment (read,
 * toggled, then written only if nobody wrote in between; else read again), together with any title or type.
 */
async function toggleDocumentTask(
  ctx: BoardContext,
  input: { doc_id: string; title?: string; content?: string; doc_type?: DocType },
  toggle: TaskToggleRequest,
) {
  for (;;) {
    const row = await requireDocument(ctx, input.doc_id);
    const toggled = toggleTaskIn({ text: row.content, updatedAt: row.updated_at }, toggle, 'document', input.content !== undefined);
    const now = ctx.now();
    const written = await inTransaction(ctx, async (trx, log) => {
      if (!(await replaceDocumentContent(trx, row.id, row.content, toggled.text, now))) return false;
      const others = {
        ...(input.title !== undefined ? { title: input.title.trim() } : {}),
        ...(input.doc_type !== undefined ? { doc_type: input.doc_type } : {}),
      };
      if (Object.keys(others).length > 0) await updateDocumentRow(trx, row.id, others);
      log.document('updated', row.slug, now);
      return true;
    });
    if (written) return presentDocument((await documentBySlugOrId(ctx.db, ctx.project.id, row.id))!);
  }
}

/** DELETE /documents/{slug} (REST only). */
export async function deleteDocument(ctx: BoardContext, input: { doc_id: string }) {
  const row = await requireDocument(ctx, input.doc_id);
  await inTransaction(ctx, async (trx, log) => {
    await deleteDocumentRow(trx, row.id);
    log.document('deleted', row.slug);
  });
  return { deleted: true as const, slug: row.slug };
}
