import { FlowsError } from './domain/errors.ts';
import { draftProblems, parseDraftBody, type DraftProblem } from './domain/draft.ts';
import { instantiateTemplate } from './domain/template-bindings.ts';
import type { FlowAdmin, SavedFlow } from './flow-admin.ts';
import type { ProviderRegistry } from './engine/provider-registry.ts';
import type { DraftStore } from './store/draft-store.ts';
import type { FlowStore } from './store/flow-store.ts';
import type { KnowledgeStore } from './store/knowledge-store.ts';
import type { Org } from './store/org-store.ts';
import type { SecretStore } from './store/secret-store.ts';

/** A draft as the API answers it. */
export interface DraftView {
  savedAt: string;
  problems: DraftProblem[];
  definition: Record<string, unknown>;
  baseVersion: number | null;
}

/** Who acts: the organization, and the editor whose draft it is and who is named as a version's author. */
export interface Editor {
  org: Pick<Org, 'id' | 'providersVersion'>;
  /** `user:EMAIL` or `token:ID`: whose draft. */
  owner: string;
  /** As the version history names them. */
  author: string;
}

function noDraft(slug: string): FlowsError {
  return new FlowsError('not_found', `Flow "${slug}" has no draft of yours`, 'no_draft', { param: 'slug' });
}

/**
 * A flow's life beyond saving versions (design/flows.md, "Drafts, templates
 * and a flow's life"): drafts per editor, flows made from templates, duplicates.
 */
export class FlowLifecycle {
  constructor(
    private readonly deps: {
      flows: FlowStore;
      admin: FlowAdmin;
      drafts: DraftStore;
      providers: ProviderRegistry;
      secrets: SecretStore;
      knowledgeBases: KnowledgeStore;
    },
  ) {}

  private async validationContext(orgId: number) {
    const [providers, secrets] = await Promise.all([this.deps.providers.names(orgId), this.deps.secrets.names(orgId)]);
    return { providers, secrets };
  }

  /** Stores the editor's draft of a flow, valid or not, and says what Save would refuse in it. */
  async putDraft(editor: Editor, slug: string, body: unknown): Promise<{ savedAt: string; problems: DraftProblem[] }> {
    const draft = parseDraftBody(body);
    const flow = await this.deps.flows.require(editor.org.id, slug);
    const [savedAt, context] = await Promise.all([this.deps.drafts.put(flow.id, editor.owner, draft), this.validationContext(editor.org.id)]);
    return { savedAt, problems: draftProblems({ ...draft.definition, slug: flow.slug }, context) };
  }

  /** The editor's draft of a flow with its problems now (providers and secrets may have changed); 404 no_draft without one. */
  async getDraft(editor: Editor, slug: string): Promise<DraftView> {
    const flow = await this.deps.flows.require(editor.org.id, slug);
    const draft = await this.deps.drafts.get(flow.id, editor.owner);
    if (!draft) throw noDraft(flow.slug);
    const problems = draftProblems({ ...draft.definition, slug: flow.slug }, await this.validationContext(editor.org.id));
    return { savedAt: draft.savedAt, problems, definition: draft.definition, baseVersion: draft.baseVersion };
  }

  /** Discards the editor's draft of a flow (nothing to discard is fine). */
  async deleteDraft(editor: Editor, slug: string): Promise<void> {
    const flow = await this.deps.flows.require(editor.org.id, slug);
    await this.deps.drafts.delete(flow.id, editor.owner);
  }

  /** Creates version 1 of a flow from a template and the user's bindings (422 naming every problem of them). */
  async fromTemplate(editor: Editor, body: Record<string, unknown>): Promise<SavedFlow> {
    const orgId = editor.org.id;
    const [context, knowledgeBases] = await Promise.all([this.validationContext(orgId), this.deps.knowledgeBases.names(orgId)]);
    const { template, definition } = instantiateTemplate(body, { ...context, knowledgeBases });
    return this.deps.admin.save(editor.org, definition, { author: editor.author, note: `From the template "${template.name}"` });
  }

  /** Saves a flow's current version as version 1 of a new flow named `name` (default: "NAME (copy)"), with a slug of its own. */
  async duplicate(editor: Editor, slug: string, name: string | undefined): Promise<SavedFlow> {
    const { flow, definition } = await this.deps.admin.current(editor.org.id, slug);
    const { slug: _old, ...rest } = definition;
    const copyName = name?.trim() || `${flow.name} (copy)`;
    return this.deps.admin.save(
      editor.org,
      { ...rest, name: copyName },
      { author: editor.author, note: `Duplicated from "${flow.slug}" version ${flow.version}` },
    );
  }
}
