// What the canvas builder calls: saving with the version it was based on, the version history, the
// organization's flows, connections and knowledge bases (for its selects), and the flow's run stream.
import { api, type ApiError } from '@switchboard/web-kit';
import type { Definition } from '../canvas/definition.ts';
import type { FlowSummary, Run } from './types.ts';

/** A flow as `GET …/flows/{slug}` and a save answer it: the listed fields, who saved it and why, and the definition as the builder reads it. */
export interface SavedFlow extends Omit<FlowSummary, 'runs_24h'> {
  author: string | null;
  note: string | null;
  definition: Definition;
}

/** A version as the history lists it. */
export interface VersionSummary {
  version: number;
  created_at: string;
  author: string | null;
  note: string | null;
}

/** One version with its definition. */
export interface VersionDetail extends VersionSummary {
  definition: Definition;
}

/** The options of a save: the version it was edited from (409 `version_conflict` when no longer the latest) and a note. */
export interface SaveOptions {
  baseVersion?: number;
  note?: string;
}

/** A draft as `GET …/flows/{slug}/draft` answers it. */
export interface Draft {
  saved_at: string;
  problems: Array<{ node: string | null; message: string }>;
  base_version: number | null;
  definition: Definition;
}

/** Keepalive requests may carry this much (the browser's limit for all of a page's pending ones is 64 KiB). */
const KEEPALIVE_LIMIT = 60_000;

/**
 * Draft writes still on their way, by URL. A builder that closes sends what is left of its draft; opened again
 * at once (Back), it reads the draft only after every write before it landed, or it would open on an older draft
 * (or on none, when a removal was still going). Each entry settles once all writes tracked so far have.
 */
const draftWrites = new Map<string, Promise<unknown>>();

function trackDraftWrite<T>(path: string, write: Promise<T>): Promise<T> {
  const all: Promise<unknown> = Promise.allSettled([draftWrites.get(path), write]);
  draftWrites.set(path, all);
  const settled = () => {
    if (draftWrites.get(path) === all) draftWrites.delete(path);
  };
  void all.then(settled);
  return write;
}

/** The builder's calls for the organization whose management API is at `base` (`/api/llm/{org}`). */
export function builderApi(base: string) {
  const flowPath = (slug: string) => `${base}/flows/${encodeURIComponent(slug)}`;
  return {
    flow: (slug: string, signal?: AbortSignal) => api<SavedFlow>(flowPath(slug), { signal }),
    save: (definition: Definition, options: SaveOptions = {}) =>
      api<SavedFlow>(`${base}/flows`, {
        method: 'POST',
        body: {
          ...definition,
          ...(options.baseVersion !== undefined ? { base_version: options.baseVersion } : {}),
          ...(options.note ? { note: options.note } : {}),
        },
      }),
    versions: (slug: string, signal?: AbortSignal) => api<{ versions: VersionSummary[] }>(`${flowPath(slug)}/versions`, { signal }),
    version: (slug: string, version: number, signal?: AbortSignal) => api<VersionDetail>(`${flowPath(slug)}/versions/${version}`, { signal }),
    restore: (slug: string, version: number, options: SaveOptions = {}) =>
      api<SavedFlow>(`${flowPath(slug)}/versions/${version}/restore`, {
        method: 'POST',
        body: { ...(options.baseVersion !== undefined ? { base_version: options.baseVersion } : {}), ...(options.note ? { note: options.note } : {}) },
      }),
    /** The user's draft of the flow, or null when there is none. */
    draft: async (slug: string, signal?: AbortSignal) => {
      await draftWrites.get(`${flowPath(slug)}/draft`);
      return api<Draft>(`${flowPath(slug)}/draft`, { signal }).catch((error: ApiError) => {
        if (error.status === 404 && error.code === 'no_draft') return null;
        throw error;
      });
    },
    /**
     * Stores the canvas as the user's draft. `leaving`: the page is going away, so the request is sent
     * with keepalive (when small enough to be allowed) and outlives it.
     */
    putDraft: (slug: string, definition: Definition, baseVersion: number, leaving = false) => {
      const path = `${flowPath(slug)}/draft`;
      if (!leaving) return trackDraftWrite(path, api<{ saved_at: string }>(path, { method: 'PUT', body: { definition, base_version: baseVersion } }));
      const body = JSON.stringify({ definition, base_version: baseVersion });
      const sent = fetch(path, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body,
        credentials: 'same-origin',
        keepalive: body.length < KEEPALIVE_LIMIT,
      });
      return trackDraftWrite(
        path,
        sent.then(() => undefined),
      );
    },
    /**
     * Holds reads of the draft until `closing` settles: a closing builder's last store, which may wait for an
     * earlier one before it sends anything.
     */
    holdDraftReads: (slug: string, closing: Promise<unknown>) => void trackDraftWrite(`${flowPath(slug)}/draft`, closing),
    deleteDraft: (slug: string) => trackDraftWrite(`${flowPath(slug)}/draft`, api<void>(`${flowPath(slug)}/draft`, { method: 'DELETE' })),
    /** A provider connection's models (cached by the service for 10 minutes). */
    models: (provider: string, signal?: AbortSignal) =>
      api<{ models: Array<{ id: string }>; fetched_at: string }>(`${base}/providers/${encodeURIComponent(provider)}/models`, { signal }),
    flows: (signal?: AbortSignal) => api<{ flows: Array<{ slug: string; name: string }> }>(`${base}/flows`, { signal }),
    providers: (signal?: AbortSignal) => api<{ providers: Array<{ name: string; kind: string }> }>(`${base}/providers`, { signal }),
    knowledgeBases: (signal?: AbortSignal) => api<{ knowledge_bases: Array<{ name: string }> }>(`${base}/knowledge-bases`, { signal }),
    /** The organization's secret names (for `{{secrets.NAME}}` completions; values never come). */
    secrets: (signal?: AbortSignal) => api<{ secrets: Array<{ name: string }> }>(`${base}/secrets`, { signal }),
    run: (runId: string, signal?: AbortSignal) => api<Run>(`${base}/runs/${encodeURIComponent(runId)}`, { signal }),
    /** Starts a JSON Lines run of the flow's saved version; the caller reads the body (see run-stream.ts). */
    startRun: (slug: string, body: { input: Record<string, unknown>; metadata?: Record<string, unknown> }, signal?: AbortSignal) =>
      fetch(`${flowPath(slug)}/run`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
        body: JSON.stringify({ ...body, stream: true }),
        signal,
      }),
  };
}

/** The builder's client of one organization. */
export type BuilderApi = ReturnType<typeof builderApi>;
