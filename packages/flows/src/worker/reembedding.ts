import type { Logger } from '@switchboard/core';
import type { KnowledgeService } from '../engine/knowledge-service.ts';
import type { EmbeddingJob, EmbeddingJobStore } from '../store/embedding-job-store.ts';

/** Chunks embedded per provider call (and written per transaction). */
export const EMBEDDING_BATCH = 64;
/** A job whose instance wrote nothing for this long is taken over by another (or by this one at its next start). */
export const EMBEDDING_STALE_MS = 60_000;

/**
 * Embeds every chunk of a knowledge base again after its embedding model
 * changed, a batch at a time, writing its progress on the base's row. A
 * provider failure ends the job `failed` with the provider's message (a new
 * change of model, or the same one again, retries). Jobs of instances that
 * died are taken over: at start, then every minute.
 */
export class Reembedder {
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    private readonly jobs: EmbeddingJobStore,
    private readonly knowledge: KnowledgeService,
    private readonly logger: Logger,
    private readonly staleMs = EMBEDDING_STALE_MS,
  ) {}

  /** Works a job in the background. */
  start(job: EmbeddingJob): void {
    const work = this.work(job).finally(() => this.running.delete(work));
    this.running.add(work);
  }

  private async work(job: EmbeddingJob): Promise<void> {
    const org = { id: job.orgId, providersVersion: job.providersVersion };
    try {
      while (!this.stopping) {
        const batch = await this.jobs.pending(job.kbId, EMBEDDING_BATCH);
        if (batch.length === 0) return await this.jobs.end(job, null);
        const vectors = await this.knowledge.embedTexts(
          org,
          job.embedding,
          batch.map((c) => c.text),
        );
        // false: the base's model changed again (or another instance took the job over): that job goes on.
        if (
          !(await this.jobs.write(
            job,
            batch.map((c, i) => ({ id: c.id, embedding: vectors[i] })),
          ))
        )
          return;
      }
    } catch (error) {
      const message = (error as Error).message;
      this.logger.warn({ knowledge_base: job.kbName, err: message }, 'embedding a knowledge base again failed');
      await this.jobs.end(job, message).catch(() => undefined);
    }
  }

  /** Takes over the jobs left by stopped instances now and every staleMs. */
  resumeStale(): void {
    const tick = () =>
      void this.jobs
        .claimStale(new Date(Date.now() - this.staleMs).toISOString())
        .then((claimed) => {
          for (const job of claimed) this.start(job);
        })
        .catch((error) => this.logger.warn({ err: error }, 'looking for embedding jobs to take over failed'));
    tick();
    this.timer = setInterval(tick, this.staleMs);
    this.timer.unref();
  }

  /** Stops after each job's current batch (another instance, or the next start, goes on) and waits for them. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.running]);
  }

  /** Resolves when every job of this instance has ended (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
