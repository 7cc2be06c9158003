import { AppError } from '@switchboard/core';
import type { FlowDefinition } from './domain/flow-definition.ts';
import { validateDefinition } from './domain/flow-validation.ts';
import { FlowsError, versionConflict, versionNotFound } from './domain/errors.ts';
import { baseVersionOf, checkSaveOptions, splitSaveBody } from './domain/save-request.ts';
import type { ProviderRegistry } from './engine/provider-registry.ts';
import type { ProviderCheck } from './engine/provider-check.ts';
import type { FlowStore, FlowSummary, FlowVersion, VersionSummary } from './store/flow-store.ts';
import type { Org } from './store/org-store.ts';
import type { SecretStore } from './store/secret-store.ts';
import type { DraftStore } from './store/draft-store.ts';
import { refuseAgentCycles } from './agent-cycles.ts';

/** How a save is made: by whom, with what note, from which version. */
export interface SaveRequest {
  /** PUT …/flows/{slug}: the flow must exist and keeps this slug whatever the body says. */
  slug?: string;
  /** Who saves: the principal's actor (`token:NAME`, `user:EMAIL`), `cli` for the CLI; null when unknown. */
  author?: string | null;
  /** Shown in the version history (at most 500 characters); else the body's `note`. */
  note?: string;
  /**
   * The version the edit started from (the If-Match header's), with or
   * instead of the body's `base_version`: 409 version_conflict unless it is
   * still the latest. Neither: the save is unconditional.
   */
  baseVersion?: number;
  /** Whose draft the save replaces (`user:EMAIL`, `token:ID`): it is cleared once the version is saved. */
  draftOwner?: string;
}

/** A saved flow as the API answers it. */
export interface SavedFlow {
  flow: FlowSummary;
  created: boolean;
  definition: FlowDefinition;
  author: string | null;
  note: string | null;
}

/**
 * Managing flows and provider connections: validation against the
 * organization's providers and secrets, versions with their authors and
 * notes, provider checks. Shared by the API and the CLI.
 */
export class FlowAdmin {
  constructor(
    private readonly flows: FlowStore,
    private readonly providers: ProviderRegistry,
    private readonly secrets: SecretStore,
    private readonly drafts: DraftStore,
  ) {}

  /**
   * Validates and saves a definition as a new version (see SaveRequest). A
   * top-level `note` and `base_version` of `body` are taken out of it first:
   * they are never stored in the definition.
   */
  async save(org: Pick<Org, 'id' | 'providersVersion'>, body: unknown, request: SaveRequest = {}): Promise<SavedFlow> {
    const { slug, author = null } = request;
    const split = splitSaveBody(body);
    let raw = split.definition;
    const note = checkSaveOptions({ note: request.note }).note ?? split.note ?? null;
    const baseVersion = baseVersionOf(split.baseVersion, request.baseVersion);
    // Looked up once: the new version is added to this row, not to a second read of it.
    const existing = slug === undefined ? undefined : await this.flows.require(org.id, slug);
    // Told before validation: an editor behind the latest version reloads before fixing anything else.
    // (Versions only grow, so this is never wrong; the store's conditional update is what decides.)
    if (existing && baseVersion !== undefined && existing.version !== baseVersion) throw versionConflict(existing.slug, baseVersion, existing.version);
    if (existing && raw !== null && typeof raw === 'object' && !Array.isArray(raw)) raw = { ...(raw as object), slug };
    const [known, secrets] = await Promise.all([this.providers.names(org.id), this.secrets.names(org.id)]);
    const definition = validateDefinition(raw, { providers: known, secrets });
    await refuseAgentCycles(this.flows, org.id, definition.slug, definition);
    const meta = { author, note, baseVersion };
    const saved = existing
      ? { flow: await this.flows.addVersion(existing, definition, meta), created: false }
      : await this.flows.save(org.id, definition, meta);
    if (request.draftOwner !== undefined) await this.drafts.delete(saved.flow.id, request.draftOwner);
    return { ...saved, definition: { ...definition, slug: saved.flow.slug }, author, note };
  }

  /** Saves version `version` of a flow again as its newest version (default note `Restored version N`). */
  async restore(org: Pick<Org, 'id' | 'providersVersion'>, slug: string, version: number, request: Omit<SaveRequest, 'slug'> = {}): Promise<SavedFlow> {
    const old = await this.version(org.id, slug, version);
    return this.save(org, old.definition, { ...request, slug, note: request.note ?? `Restored version ${version}` });
  }

  /** The definition of a flow's current version, with its author and note. */
  async current(orgId: number, slug: string): Promise<{ flow: FlowSummary; definition: FlowDefinition; author: string | null; note: string | null }> {
    const flow = await this.flows.require(orgId, slug);
    const current = await this.flows.version(flow.id, flow.version);
    if (!current) throw new AppError('internal', 'Flow version missing');
    return { flow, definition: current.definition, author: current.author, note: current.note };
  }

  /** A flow's versions, newest first. */
  async versions(orgId: number, slug: string): Promise<VersionSummary[]> {
    const flow = await this.flows.require(orgId, slug);
    return this.flows.versions(flow.id);
  }

  /** One version of a flow with its definition; 404 version_not_found when the flow has no such version. */
  async version(orgId: number, slug: string, version: number): Promise<FlowVersion> {
    const flow = await this.flows.require(orgId, slug);
    const found = await this.flows.version(flow.id, version);
    if (!found) throw versionNotFound(flow.slug, version);
    return found;
  }

  /** Lists a provider connection's models, or says why it cannot (never with its key); 404 for an unknown connection. */
  async checkProvider(orgId: number, name: string): Promise<ProviderCheck> {
    const connection = await this.providers.connection(orgId, name);
    if (!connection) throw new FlowsError('not_found', `Provider connection "${name}" not found`, 'provider_not_found', { param: 'name' });
    // Loaded on use: the SDKs it needs would slow every CLI start.
    const { checkProvider } = await import('./engine/provider-check.ts');
    return checkProvider(connection);
  }
}
