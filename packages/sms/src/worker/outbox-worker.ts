import { databaseUnavailable, type Logger } from '@switchboard/core';
import type { RateLimiter } from '@switchboard/core';
import { retryDelayMs } from '../domain/retry.ts';
import type { ActiveGateway, OrgStore } from '../store/org-store.ts';
import type { ClaimedMessage, OutboxStore } from '../store/outbox-store.ts';
import type { SmsConfig } from '../config.ts';
import { DRIVER_SENDERS, PHONE_DRIVERS } from './drivers.ts';

const BATCH = 20;

/**
 * Sends queued messages: claims due ones from the database (safe with many
 * instances), paces phone drivers per SIM, records `sent`, and retries
 * failures with exponential backoff until `SMS_SEND_MAX_ATTEMPTS`.
 */
export class OutboxWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private again = false;

  constructor(
    private readonly outbox: OutboxStore,
    private readonly orgs: OrgStore,
    private readonly limiter: RateLimiter,
    private readonly config: SmsConfig,
    private readonly logger: Logger,
  ) {}

  /** Starts polling every SMS_WORKER_INTERVAL_MS (0 leaves the worker off). */
  start(): void {
    if (this.config.workerIntervalMs > 0) this.schedule(0);
  }

  /** Looks for work now (after a send was queued) instead of at the next tick. */
  kick(): void {
    if (this.stopped || this.config.workerIntervalMs === 0) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Stops polling and waits for the batch in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .then((count) => {
          if (count === BATCH) this.again = true;
        })
        .catch((error) => {
          // A database outage is reported by every tick until it ends: a warning, not an error each time.
          if (databaseUnavailable(error)) this.logger.warn({ err: error }, 'outbox worker: the database is unavailable; the next tick tries again');
          else this.logger.error({ err: error }, 'outbox worker failed');
        })
        .finally(() => {
          this.running = undefined;
          const next = this.again ? 0 : this.config.workerIntervalMs;
          this.again = false;
          this.schedule(next);
        });
    }, delayMs);
    this.timer.unref();
  }

  /** Claims and attempts one batch of due messages; returns how many were claimed. */
  async runOnce(now: Date = new Date()): Promise<number> {
    // Past the lease the message is another worker's to send: a send still running must have timed out by then.
    const leaseMs = Math.max(this.config.claimLeaseMs, this.config.sendTimeoutMs * 2);
    const claimed = await this.outbox.claim(now, leaseMs, BATCH);
    // One read (and decryption) of an organization's gateway per batch, not one per message.
    const gateways = new Map<string, Promise<ActiveGateway>>();
    const gatewayOf = (orgId: string) => {
      let gateway = gateways.get(orgId);
      if (!gateway) {
        gateway = this.orgs.activeGateway(orgId);
        gateways.set(orgId, gateway);
      }
      return gateway;
    };
    await Promise.all(claimed.map((item) => this.attempt(item, gatewayOf(item.message.org_id))));
    return claimed.length;
  }

  private async attempt({ message, attempt }: ClaimedMessage, gateway: Promise<ActiveGateway>): Promise<void> {
    const { driver, settings } = await gateway;
    const now = new Date();
    if (driver === 'none') {
      await this.outbox.defer(message, now, now);
      return;
    }
    if (PHONE_DRIVERS.has(driver)) {
      const decision = await this.limiter.hit(`sms:sim:${message.org_id}:${message.sim ?? '-'}`, this.config.simRate, now.getTime());
      if (!decision.allowed) {
        await this.outbox.defer(message, new Date(now.getTime() + decision.retryAfterSeconds * 1000), now);
        return;
      }
    }
    try {
      const result = await DRIVER_SENDERS[driver](message, settings, this.config.sendTimeoutMs, Math.floor(Date.now() / 1000));
      await this.outbox.markSent(message, { externalId: result.externalId, gateway: driver }, new Date());
      this.logger.info({ message_id: message.id, driver, attempt }, 'message sent');
    } catch (error) {
      const reason = (error as Error).message || String(error);
      const failedAt = new Date();
      if (attempt >= this.config.sendMaxAttempts) {
        await this.outbox.markFailed(message, reason, failedAt);
        this.logger.warn({ message_id: message.id, driver, attempt, reason }, 'message failed');
      } else {
        const delay = retryDelayMs(attempt, this.config.sendRetryBaseMs);
        await this.outbox.retryLater(message, new Date(failedAt.getTime() + delay), failedAt);
        this.logger.info({ message_id: message.id, driver, attempt, reason, retry_in_ms: delay }, 'send attempt failed');
      }
    }
  }
}
