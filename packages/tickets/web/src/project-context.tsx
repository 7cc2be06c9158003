import { createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { projectApi, type ProjectApi } from './api/client.ts';
import type { ColumnInfo, Label, Member } from './api/types.ts';
import { ProjectEvents, type LiveListener, type LiveStatus } from './live/project-events.ts';

/** What every page of a project shares: its API, its live stream, and the lists forms offer (labels, members, columns). */
export interface ProjectContextValue {
  key: string;
  name: string;
  api: ProjectApi;
  events: ProjectEvents;
  labels: Label[];
  members: Member[];
  columns: ColumnInfo[];
  /** Reads labels, members and columns again (after a settings change). */
  reloadMeta: () => void;
}

const ProjectContext = createContext<ProjectContextValue | null>(null);

/** The current project; only inside a ProjectProvider. */
export function useProject(): ProjectContextValue {
  const value = useContext(ProjectContext);
  if (!value) throw new Error('useProject outside ProjectProvider');
  return value;
}

/** Opens the project's live stream and loads its lists; children render at once (the lists fill in). */
export function ProjectProvider({ projectKey, name, children }: { projectKey: string; name: string; children: ReactNode }) {
  const client = useMemo(() => projectApi(projectKey), [projectKey]);
  const [events, setEvents] = useState<ProjectEvents | null>(null);
  const [meta, setMeta] = useState<{ labels: Label[]; members: Member[]; columns: ColumnInfo[] }>({ labels: [], members: [], columns: [] });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const stream = new ProjectEvents(client.eventsUrl);
    setEvents(stream);
    return () => stream.close();
  }, [client]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: generation is how reloadMeta() asks for another read.
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    void Promise.all([
      client
        .labels(signal)
        .then((r) => r.labels)
        .catch(() => undefined),
      client
        .members(signal)
        .then((r) => r.members)
        .catch(() => undefined),
      client
        .columns(signal)
        .then((r) => r.columns)
        .catch(() => undefined),
    ]).then(([labels, members, columns]) => {
      if (signal.aborted) return;
      setMeta((current) => ({ labels: labels ?? current.labels, members: members ?? current.members, columns: columns ?? current.columns }));
    });
    return () => controller.abort();
  }, [client, generation]);

  const reloadMeta = useCallback(() => setGeneration((n) => n + 1), []);

  // A project change (columns, labels, members) refreshes the lists.
  useEffect(() => {
    if (!events) return;
    return events.subscribe({
      changes: (batch) => {
        if (batch.some((event) => event.kind === 'project')) reloadMeta();
      },
      resync: reloadMeta,
    });
  }, [events, reloadMeta]);

  const value = useMemo(
    () => (events ? { key: projectKey, name, api: client, events, ...meta, reloadMeta } : null),
    [events, projectKey, name, client, meta, reloadMeta],
  );
  if (!value) return null;
  return <ProjectContext.Provider value={value}>{children}</ProjectContext.Provider>;
}

/** Subscribes to the project's changes while mounted; `listener` may change between renders. */
export function useLiveChanges(listener: LiveListener): void {
  const { events } = useProject();
  const [ref] = useState<{ current: LiveListener }>(() => ({ current: listener }));
  ref.current = listener;
  useEffect(() => events.subscribe({ changes: (batch) => ref.current.changes?.(batch), resync: () => ref.current.resync?.() }), [events, ref]);
}

/** The live stream's status, for the indicator. */
export function useLiveStatus(): LiveStatus {
  const { events } = useProject();
  return useSyncExternalStore(
    (notify) => events.onStatus(notify),
    () => events.status,
  );
}
