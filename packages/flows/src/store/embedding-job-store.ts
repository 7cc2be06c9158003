import { randomBytes } from 'node:crypto';
import { isoNow } from '@switchboard/core';
import type { Kysely } from 'kysely';
import type { FlowsDatabase } from './database.ts';

/** A knowledge base whose chunks wait for vectors, as a job needs it. */
export interface EmbeddingJob {
  job: string;
  kbId: string;
  kbName: string;
  orgId: number;
  providersVersion: number;
  embedding: { provider: string; model: string };
}

const newJobId = () => `emb_${randomBytes(9).toString('base64url')}`;

/**
 * The state of re-embedding jobs, kept on the knowledge base's row so that
 * any instance reads the progress, and takes over a job whose instance died.
 * A job writes vectors only while it is still the base's job: a later change
 * of model starts another, and the older one stops at its next batch.
 */
export class EmbeddingJobStore {
  constructor(private readonly db: Kysely<FlowsDatabase>) {}

  /**
   * Sets a knowledge base's embedding model (null: none, BM25 only), drops
   * every chunk's vector, and starts a job when chunks need new ones;
   * returns it (null: nothing to embed).
   */
  async change(kbId: string, embedding: { provider: string; model: string } | null, now = new Date()): Promise<EmbeddingJob | null> {
    const stamp = isoNow(now);
    return this.db.transaction().execute(async (trx) => {
      // The base's row first: a concurrent job's next batch waits for this change, then finds it is no longer the job.
      const total = embedding
        ? Number(
            (
              await trx
                .selectFrom('kb_chunks')
                .select((eb) => eb.fn.countAll<number | string>().as('n'))
                .where('kb_id', '=', kbId)
                .executeTakeFirstOrThrow()
            ).n,
          )
        : 0;
      const job = embedding && total > 0 ? newJobId() : null;
      const row = await trx
        .updateTable('knowledge_bases')
        .set({
          embedding_provider: embedding?.provider ?? null,
          embedding_model: embedding?.model ?? null,
          embedding_status: job ? 'running' : null,
          embedding_done: 0,
          embedding_total: total,
          embedding_error: null,
          embedding_job: job,
          embedding_heartbeat: job ? stamp : null,
          updated_at: stamp,
        })
        .where('id', '=', kbId)
        .returning(['name', 'org_id'])
        .executeTakeFirstOrThrow();
      await trx.updateTable('kb_chunks').set({ embedding: null }).where('kb_id', '=', kbId).execute();
      if (!job || !embedding) return null;
      const org = await trx.selectFrom('orgs').select('providers_version').where('id', '=', row.org_id).executeTakeFirstOrThrow();
      return { job, kbId, kbName: row.name, orgId: row.org_id, providersVersion: org.providers_version, embedding };
    });
  }

  /** Up to `size` chunks of the base still without a vector, in document order. */
  async pending(kbId: string, size: number): Promise<Array<{ id: string; text: string }>> {
    return this.db
      .selectFrom('kb_chunks')
      .select(['id', 'text'])
      .where('kb_id', '=', kbId)
      .where('embedding', 'is', null)
      .orderBy('document_id')
      .orderBy('ordinal')
      .limit(size)
      .execute();
  }

  /** Stores a batch's vectors and counts them, if `job` is still the base's job; false when it is not (stop). */
  async write(job: EmbeddingJob, vectors: Array<{ id: string; embedding: number[] }>, now = new Date()): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('knowledge_bases')
        .set((eb) => ({ embedding_done: eb('embedding_done', '+', vectors.length), embedding_heartbeat: isoNow(now) }))
        .where('id', '=', job.kbId)
        .where('embedding_job', '=', job.job)
        .returning('id')
        .executeTakeFirst();
      if (!claimed) return false;
      for (const vector of vectors) {
        await trx
          .updateTable('kb_chunks')
          .set({ embedding: JSON.stringify(vector.embedding) })
          .where('id', '=', vector.id)
          .where('kb_id', '=', job.kbId)
          .execute();
      }
      return true;
    });
  }

  /** Ends a job: done (no error), or failed with the provider's message. Only while it is still the base's job. */
  async end(job: EmbeddingJob, error: string | null): Promise<void> {
    await this.db
      .updateTable('knowledge_bases')
      .set({ embedding_status: error === null ? null : 'failed', embedding_error: error, embedding_job: null, embedding_heartbeat: null })
      .where('id', '=', job.kbId)
      .where('embedding_job', '=', job.job)
      .execute();
  }

  /** Takes over jobs whose instance stopped writing before `staleBefore`: each gets a new job id, so the old one (if alive after all) stops. */
  async claimStale(staleBefore: string, now = new Date()): Promise<EmbeddingJob[]> {
    const rows = await this.db
      .selectFrom('knowledge_bases')
      .innerJoin('orgs', 'orgs.id', 'knowledge_bases.org_id')
      .select([
        'knowledge_bases.id',
        'knowledge_bases.name',
        'knowledge_bases.org_id',
        'orgs.providers_version',
        'knowledge_bases.embedding_job',
        'knowledge_bases.embedding_provider',
        'knowledge_bases.embedding_model',
      ])
      .where('knowledge_bases.embedding_status', '=', 'running')
      .where('knowledge_bases.embedding_heartbeat', '<', staleBefore)
      .execute();
    const claimed: EmbeddingJob[] = [];
    for (const row of rows) {
      if (!row.embedding_provider || !row.embedding_model || !row.embedding_job) continue;
      const job = newJobId();
      const taken = await this.db
        .updateTable('knowledge_bases')
        .set({ embedding_job: job, embedding_heartbeat: isoNow(now) })
        .where('id', '=', row.id)
        .where('embedding_job', '=', row.embedding_job)
        .returning('id')
        .executeTakeFirst();
      if (taken)
        claimed.push({
          job,
          kbId: row.id,
          kbName: row.name,
          orgId: row.org_id,
          providersVersion: row.providers_version,
          embedding: { provider: row.embedding_provider, model: row.embedding_model },
        });
    }
    return claimed;
  }
}
