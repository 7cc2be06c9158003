import { AppError } from '@switchboard/core';
import type { FlowDefinition } from './domain/flow-definition.ts';
import { validateDefinition } from './domain/flow-validation.ts';
import type { ProviderRegistry } from './engine/provider-registry.ts';
import type { FlowStore, FlowSummary } from './store/flow-store.ts';
import type { Org } from './store/org-store.ts';
import { refuseAgentCycles } from './agent-cycles.ts';

/** Saving flows: validation against the organization's providers, then a new version. Shared by the API and the CLI. */
export class FlowAdmin {
  constructor(
    private readonly flows: FlowStore,
    private readonly providers: ProviderRegistry,
  ) {}

  /**
   * Validates and saves a definition. With `slug` (PUT …/flows/{slug}) the flow
   * must exist and keeps that slug whatever the body says.
   */
  async save(org: Pick<Org, 'id' | 'providersVersion'>, raw: unknown, slug?: string): Promise<{ flow: FlowSummary; created: boolean; definition: FlowDefinition }> {
    // Looked up once: the new version is added to this row, not to a second read of it.
    const existing = slug === undefined ? undefined : await this.flows.require(org.id, slug);
    if (existing && raw !== null && typeof raw === 'object' && !Array.isArray(raw)) raw = { ...(raw as object), slug };
    const known = await this.providers.names(org.id);
    const definition = validateDefinition(raw, { providers: known });
    await refuseAgentCycles(this.flows, org.id, definition.slug, definition);
    const saved = existing ? { flow: await this.flows.addVersion(existing, definition), created: false } : await this.flows.save(org.id, definition);
    return { ...saved, definition: { ...definition, slug: saved.flow.slug } };
  }

  /** The definition of a flow's current version. */
  async current(orgId: number, slug: string): Promise<{ flow: FlowSummary; definition: FlowDefinition }> {
    const flow = await this.flows.require(orgId, slug);
    const definition = await this.flows.definition(flow.id, flow.version);
    if (!definition) throw new AppError('internal', 'Flow version missing');
    return { flow, definition };
  }
}
