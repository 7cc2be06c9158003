import { FlowsError } from '../domain/errors.ts';
import type { ProviderCheck } from './provider-check.ts';

/** How long a provider's model list is reused. */
export const MODEL_LIST_TTL_MS = 10 * 60_000;
// Organizations × connections this process remembers; the oldest goes first.
const MAX_ENTRIES = 500;

/** A provider's models as GET …/providers/{name}/models answers them. */
export interface ModelList {
  models: Array<{ id: string }>;
  fetchedAt: string;
}

/**
 * The model ids of provider connections, asked of the provider at most once
 * per 10 minutes per connection (a change of the organization's connections
 * starts afresh), with concurrent askers sharing one request. A cache only:
 * every instance may ask the provider once.
 */
export class ModelCatalogue {
  private readonly entries = new Map<string, { at: number; list: Promise<ModelList> }>();

  constructor(
    private readonly check: (orgId: number, name: string) => Promise<ProviderCheck>,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = MODEL_LIST_TTL_MS,
  ) {}

  /** The connection's models, from the cache unless `refresh`; 502 upstream_error with the provider's message when it fails. */
  async list(org: { id: number; providersVersion: number }, name: string, refresh = false): Promise<ModelList> {
    const key = `${org.id}\u0000${org.providersVersion}\u0000${name}`;
    const cached = this.entries.get(key);
    if (cached && !refresh && this.now() - cached.at < this.ttlMs) return cached.list;
    const list = this.fetch(org.id, name);
    this.entries.set(key, { at: this.now(), list });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    // A failure is not kept: the next asker tries again.
    list.catch(() => {
      if (this.entries.get(key)?.list === list) this.entries.delete(key);
    });
    return list;
  }

  private async fetch(orgId: number, name: string): Promise<ModelList> {
    const fetchedAt = new Date(this.now()).toISOString();
    const check = await this.check(orgId, name);
    if (!check.ok) throw new FlowsError('upstream_error', check.error, 'upstream_error', { param: 'name' });
    const ids = [...new Set(check.models)].sort((a, b) => a.localeCompare(b));
    return { models: ids.map((id) => ({ id })), fetchedAt };
  }
}
