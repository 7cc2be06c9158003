import { randomBytes } from 'node:crypto';
import { AppError, isoNow } from '@switchboard/core';
import type { Kysely } from 'kysely';
import type { FlowsDatabase } from './database.ts';
import { FlowsError } from '../domain/errors.ts';
import type { KnowledgeBase, KnowledgeDocument } from '../domain/knowledge-base.ts';

export type { KnowledgeBase, KnowledgeDocument } from '../domain/knowledge-base.ts';

const KB_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$/;
const newId = (prefix: string) => `${prefix}_${randomBytes(9).toString('base64url')}`;

let documentSequence = 0;
/**
 * A document id that sorts after every earlier one of this process: the
 * documents of one upload often share a millisecond, and "oldest first"
 * breaks that tie by id. Time in ms (base 36, fixed width), a counter, then
 * random characters so that ids of several instances never collide.
 */
const newDocumentId = (now: Date) =>
  `doc_${now.getTime().toString(36).padStart(9, '0')}${(documentSequence++ % 36 ** 4).toString(36).padStart(4, '0')}${randomBytes(6).toString('base64url')}`;

/** What retrieval needs of a knowledge base: no document counts. */
export type KnowledgeBaseRef = Pick<KnowledgeBase, 'id' | 'name' | 'embedding'>;

/** One chunk of a document as its page lists it. */
export interface DocumentChunk {
  /** Its place in the document, from 0. */
  index: number;
  text: string;
  /** True when it carries a vector of the knowledge base's embedding model. */
  embedded: boolean;
}

/** 404 for a document id a knowledge base does not have. */
export function documentNotFound(kbName: string, documentId: string): FlowsError {
  return new FlowsError('not_found', `Knowledge base "${kbName}" has no document "${documentId}"`, 'document_not_found', { param: 'document_id' });
}

/** A stored chunk, as retrieval reads it. */
export interface StoredChunk {
  text: string;
  source: string;
  tokens: string[];
  embedding: number[] | null;
}

/** A chunk to store. */
export interface NewChunk {
  text: string;
  tokens: string[];
  embedding: number[] | null;
}

/** Knowledge bases of organizations: documents and their chunks. */
export class KnowledgeStore {
  constructor(private readonly db: Kysely<FlowsDatabase>) {}

  /** Creates a knowledge base; 409 when the organization has one by that name. */
  async create(
    orgId: number,
    input: { name: string; description?: string; embeddingProvider?: string; embeddingModel?: string },
    now = new Date(),
  ): Promise<KnowledgeBase> {
    if (!KB_NAME.test(input.name))
      throw new AppError('invalid_request', 'A knowledge base name must be 1-80 letters, digits, ".", "_" or "-", starting with a letter or digit');
    if ((input.embeddingProvider === undefined) !== (input.embeddingModel === undefined)) {
      throw new AppError('invalid_request', 'An embedding needs both "embedding_provider" and "embedding_model"');
    }
    if (await this.find(orgId, input.name)) throw new AppError('conflict', `Knowledge base "${input.name}" already exists`);
    const stamp = isoNow(now);
    const row = {
      id: newId('kb'),
      org_id: orgId,
      name: input.name,
      description: input.description ?? null,
      embedding_provider: input.embeddingProvider ?? null,
      embedding_model: input.embeddingModel ?? null,
      created_at: stamp,
      updated_at: stamp,
    };
    await this.db.insertInto('knowledge_bases').values(row).execute();
    // A new knowledge base has no documents: nothing to read back.
    return presentKnowledgeBase(row, { documents: 0, chunks: 0 });
  }

  /** The knowledge base with this name, with its counts, if any. */
  async find(orgId: number, name: string): Promise<KnowledgeBase | undefined> {
    const row = await this.db.selectFrom('knowledge_bases').selectAll().where('org_id', '=', orgId).where('name', '=', name).executeTakeFirst();
    if (!row) return undefined;
    return (await this.withCounts([row]))[0];
  }

  /** The knowledge base with this name for a search, in one query (no counts), if any. */
  async findRef(orgId: number, name: string): Promise<KnowledgeBaseRef | undefined> {
    const row = await this.db
      .selectFrom('knowledge_bases')
      .select(['id', 'name', 'embedding_provider', 'embedding_model'])
      .where('org_id', '=', orgId)
      .where('name', '=', name)
      .executeTakeFirst();
    return row && { id: row.id, name: row.name, embedding: embeddingOf(row) };
  }

  /** The names of the organization's knowledge bases. */
  async names(orgId: number): Promise<Set<string>> {
    const rows = await this.db.selectFrom('knowledge_bases').select('name').where('org_id', '=', orgId).execute();
    return new Set(rows.map((r) => r.name));
  }

  /** The knowledge base with this name, or 404. */
  async require(orgId: number, name: string): Promise<KnowledgeBase> {
    const kb = await this.find(orgId, name);
    if (!kb) throw new AppError('not_found', `Knowledge base "${name}" not found`);
    return kb;
  }

  /** Every knowledge base of the organization, by name. */
  async list(orgId: number): Promise<KnowledgeBase[]> {
    const rows = await this.db.selectFrom('knowledge_bases').selectAll().where('org_id', '=', orgId).orderBy('name').execute();
    return this.withCounts(rows);
  }

  private async withCounts(rows: Array<FlowsDatabase['knowledge_bases']>): Promise<KnowledgeBase[]> {
    if (rows.length === 0) return [];
    const counts = await this.db
      .selectFrom('kb_documents')
      .select((eb) => ['kb_id', eb.fn.countAll<number>().as('documents'), eb.fn.sum<number>('chunks').as('chunks')])
      .where(
        'kb_id',
        'in',
        rows.map((r) => r.id),
      )
      .groupBy('kb_id')
      .execute();
    const byKb = new Map(counts.map((c) => [c.kb_id, c]));
    return rows.map((r) => presentKnowledgeBase(r, { documents: Number(byKb.get(r.id)?.documents ?? 0), chunks: Number(byKb.get(r.id)?.chunks ?? 0) }));
  }

  /** Sets a knowledge base's description (null: none). */
  async describe(kbId: string, description: string | null, now = new Date()): Promise<void> {
    await this.db
      .updateTable('knowledge_bases')
      .set({ description, updated_at: isoNow(now) })
      .where('id', '=', kbId)
      .execute();
  }

  /** Deletes a knowledge base with its documents and chunks. */
  async delete(orgId: number, name: string): Promise<void> {
    const kb = await this.require(orgId, name);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('kb_chunks').where('kb_id', '=', kb.id).execute();
      await trx.deleteFrom('kb_documents').where('kb_id', '=', kb.id).execute();
      await trx.deleteFrom('knowledge_bases').where('id', '=', kb.id).execute();
    });
  }

  /**
   * Stores one document with its chunks, replacing every document of the same
   * name (source) in the knowledge base, chunks and all; says whether it replaced one.
   */
  async addDocument(
    kb: KnowledgeBaseRef,
    document: { source: string; contentType: string; chars: number; contentHash?: string },
    chunks: NewChunk[],
    now = new Date(),
  ): Promise<KnowledgeDocument & { replaced: boolean }> {
    const stamp = isoNow(now);
    const row = {
      id: newDocumentId(now),
      kb_id: kb.id,
      source: document.source,
      content_type: document.contentType,
      chars: document.chars,
      chunks: chunks.length,
      created_at: stamp,
      content_hash: document.contentHash ?? null,
    };
    let replaced = false;
    await this.db.transaction().execute(async (trx) => {
      const old = await trx.selectFrom('kb_documents').select('id').where('kb_id', '=', kb.id).where('source', '=', document.source).execute();
      if (old.length > 0) {
        replaced = true;
        const ids = old.map((d) => d.id);
        await trx.deleteFrom('kb_chunks').where('document_id', 'in', ids).execute();
        await trx.deleteFrom('kb_documents').where('id', 'in', ids).execute();
      }
      await trx.insertInto('kb_documents').values(row).execute();
      // Batches keep each statement under the parameter limits of both engines.
      for (let i = 0; i < chunks.length; i += 100) {
        await trx
          .insertInto('kb_chunks')
          .values(
            chunks.slice(i, i + 100).map((c, j) => ({
              id: newId('chk'),
              kb_id: kb.id,
              document_id: row.id,
              ordinal: i + j,
              source: document.source,
              text: c.text,
              tokens: c.tokens.join(' '),
              embedding: c.embedding ? JSON.stringify(c.embedding) : null,
            })),
          )
          .execute();
      }
      await trx.updateTable('knowledge_bases').set({ updated_at: stamp }).where('id', '=', kb.id).execute();
    });
    const { kb_id: _kb, content_hash: _hash, ...presented } = row;
    return { ...presented, replaced };
  }

  /** The document of this name in a knowledge base, with its content hash, if any. */
  async documentBySource(kbId: string, source: string): Promise<(KnowledgeDocument & { contentHash: string | null }) | undefined> {
    const row = await this.db
      .selectFrom('kb_documents')
      .select(['id', 'source', 'content_type', 'chars', 'chunks', 'created_at', 'content_hash'])
      .where('kb_id', '=', kbId)
      .where('source', '=', source)
      .executeTakeFirst();
    if (!row) return undefined;
    const { content_hash: contentHash, ...document } = row;
    return { ...document, contentHash: contentHash ?? null };
  }

  /** Deletes one document of a knowledge base with its chunks; 404 document_not_found when the base has no such document. */
  async deleteDocument(kb: KnowledgeBaseRef, documentId: string, now = new Date()): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const deleted = await trx.deleteFrom('kb_documents').where('kb_id', '=', kb.id).where('id', '=', documentId).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw documentNotFound(kb.name, documentId);
      await trx.deleteFrom('kb_chunks').where('document_id', '=', documentId).execute();
      await trx
        .updateTable('knowledge_bases')
        .set({ updated_at: isoNow(now) })
        .where('id', '=', kb.id)
        .execute();
    });
  }

  /** A page of one document's chunks in order, as retrieval sees them, with how many it has; 404 for an unknown document. */
  async documentChunks(
    kb: KnowledgeBaseRef,
    documentId: string,
    page: { offset: number; limit: number },
  ): Promise<{ document: KnowledgeDocument; chunks: DocumentChunk[] }> {
    const document = await this.db
      .selectFrom('kb_documents')
      .select(['id', 'source', 'content_type', 'chars', 'chunks', 'created_at'])
      .where('kb_id', '=', kb.id)
      .where('id', '=', documentId)
      .executeTakeFirst();
    if (!document) throw documentNotFound(kb.name, documentId);
    const rows = await this.db
      .selectFrom('kb_chunks')
      .select(['ordinal', 'text', 'embedding'])
      .where('document_id', '=', documentId)
      .orderBy('ordinal')
      .offset(page.offset)
      .limit(page.limit)
      .execute();
    return { document, chunks: rows.map((r) => ({ index: r.ordinal, text: r.text, embedded: r.embedding !== null })) };
  }

  /** The documents of a knowledge base, oldest first. */
  async documents(kbId: string): Promise<KnowledgeDocument[]> {
    const rows = await this.db
      .selectFrom('kb_documents')
      .select(['id', 'source', 'content_type', 'chars', 'chunks', 'created_at'])
      .where('kb_id', '=', kbId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows;
  }

  /** Every chunk of a knowledge base, in document order (retrieval ranks them in process). */
  async chunks(kbId: string): Promise<StoredChunk[]> {
    const rows = await this.db
      .selectFrom('kb_chunks')
      .select(['text', 'source', 'tokens', 'embedding'])
      .where('kb_id', '=', kbId)
      .orderBy('document_id')
      .orderBy('ordinal')
      .execute();
    return rows.map((r) => ({
      text: r.text,
      source: r.source,
      tokens: r.tokens === '' ? [] : r.tokens.split(' '),
      embedding: r.embedding ? (JSON.parse(r.embedding) as number[]) : null,
    }));
  }
}

function presentKnowledgeBase(row: FlowsDatabase['knowledge_bases'], counts: { documents: number; chunks: number }): KnowledgeBase {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    embedding: embeddingOf(row),
    reembedding:
      row.embedding_status === 'running' || row.embedding_status === 'failed'
        ? { status: row.embedding_status, done: row.embedding_done ?? 0, total: row.embedding_total ?? 0, error: row.embedding_error ?? null }
        : null,
    documents: counts.documents,
    chunks: counts.chunks,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function embeddingOf(row: Pick<FlowsDatabase['knowledge_bases'], 'embedding_provider' | 'embedding_model'>): KnowledgeBase['embedding'] {
  return row.embedding_provider && row.embedding_model ? { provider: row.embedding_provider, model: row.embedding_model } : null;
}
