import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { LiveStream, type LiveStatus } from '@switchboard/web-kit';
import type { MessageFilter, OrgApi } from '../api/client.ts';
import type { ChangeBatch, SimRecord } from '../api/types.ts';
import {
  applyChanges,
  inboxFrom,
  withFirstPage,
  withMoreConversations,
  withOlderMessages,
  withOpenThread,
  type InboxState,
  type LiveFilter,
} from './inbox-state.ts';

/** The page's filter as the live reducer applies it: a SIM given by id or by its number. */
function liveFilter(filter: MessageFilter, sims: SimRecord[]): LiveFilter {
  const wanted = filter.sim;
  const byNumber = sims.find((s) => s.phone_number === wanted)?.sim;
  return { direction: filter.direction || null, sim: (sim) => !wanted || sim === wanted || (byNumber !== undefined && sim === byNumber) };
}

/** What the inbox page shows and does: the list and open thread, kept live by the organization's stream. */
export interface Inbox {
  state: InboxState | undefined;
  error: Error | undefined;
  threadError: Error | undefined;
  status: LiveStatus;
  loadingMore: boolean;
  loadingOlder: boolean;
  loadMore: () => void;
  loadOlder: () => void;
  reload: () => void;
}

const NO_STATUS = () => () => undefined;

/**
 * Reads the first conversations, opens the live stream from the change number that page reflects (so nothing
 * committed after it is missed), applies each batch with the pure reducer, reads the open conversation's
 * thread and marks it read as it is read.
 */
export function useInbox(api: OrgApi, filter: MessageFilter, sims: SimRecord[], openPeer: string | undefined): Inbox {
  const [state, setShown] = useState<InboxState | undefined>(undefined);
  // The state as last set, for changes that arrive before the page draws it again.
  const current = useRef<InboxState | undefined>(undefined);
  const update = useCallback((next: (state: InboxState | undefined) => InboxState | undefined) => {
    current.current = next(current.current);
    setShown(current.current);
  }, []);
  const [error, setError] = useState<Error | undefined>(undefined);
  const [threadError, setThreadError] = useState<Error | undefined>(undefined);
  const [stream, setStream] = useState<LiveStream<ChangeBatch> | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const latest = useRef({ filter: liveFilter(filter, sims), openPeer });
  latest.current = { filter: liveFilter(filter, sims), openPeer };
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const readTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const loaded = state !== undefined;

  // The first page, and the stream from the change number it reflects.
  // biome-ignore lint/correctness/useExhaustiveDependencies: generation is the trigger to read everything again (Try again, a stream reset).
  useEffect(() => {
    const controller = new AbortController();
    let live: LiveStream<ChangeBatch> | undefined;
    update(() => undefined);
    setError(undefined);
    api
      .conversations(filter, null, controller.signal)
      .then((page) => {
        if (controller.signal.aborted) return;
        update(() => inboxFrom(page));
        live = new LiveStream<ChangeBatch>(api.eventsUrl, 'messages', page.seq);
        setStream(live);
      })
      .catch((reason: Error) => {
        if (!controller.signal.aborted && reason.name !== 'AbortError') setError(reason);
      });
    return () => {
      controller.abort();
      live?.close();
      setStream(undefined);
      clearTimeout(refreshTimer.current);
    };
  }, [api, filter, generation, update]);

  const markRead = useCallback(
    (peer: string, upTo: number) => {
      clearTimeout(readTimer.current);
      readTimer.current = setTimeout(() => void api.markRead(peer, upTo).catch(() => undefined), 250);
    },
    [api],
  );

  // Live changes: the reducer, then what it asks for (a fresh first page, a read mark).
  useEffect(() => {
    if (!stream) return;
    const refreshFirstPage = () => {
      refreshTimer.current ??= setTimeout(() => {
        refreshTimer.current = undefined;
        void api
          .conversations(filter, null)
          .then((page) => update((state) => (state ? withFirstPage(state, page) : state)))
          .catch(() => undefined);
      }, 300);
    };
    return stream.subscribe({
      changes: (batches) => {
        const { filter: live, openPeer: peer } = latest.current;
        if (!current.current) return;
        const applied = applyChanges(current.current, batches, live);
        update(() => applied.state);
        if (applied.refresh) refreshFirstPage();
        if (applied.readUpTo !== null && peer !== undefined) markRead(peer, applied.readUpTo);
      },
      // The service could not replay what was missed: read everything again.
      resync: () => setGeneration((n) => n + 1),
    });
  }, [stream, api, filter, markRead, update]);

  // The open conversation's latest page, marked read up to its last message.
  useEffect(() => {
    if (!loaded || openPeer === undefined) return;
    const controller = new AbortController();
    setThreadError(undefined);
    api
      .thread(openPeer, filter, null, controller.signal)
      .then((page) => {
        if (controller.signal.aborted) return;
        update((state) => (state ? withOpenThread(state, page) : state));
        const last = page.messages[page.messages.length - 1];
        if (last) void api.markRead(openPeer, last.id).catch(() => undefined);
      })
      .catch((reason: Error) => {
        if (!controller.signal.aborted && reason.name !== 'AbortError') setThreadError(reason);
      });
    return () => controller.abort();
  }, [api, filter, openPeer, loaded, update]);

  const loadMore = useCallback(() => {
    const before = current.current?.nextBefore;
    if (before === null || before === undefined) return;
    setLoadingMore(true);
    api
      .conversations(filter, before)
      .then((page) => update((state) => (state ? withMoreConversations(state, page) : state)))
      .catch((reason: Error) => setError(reason))
      .finally(() => setLoadingMore(false));
  }, [api, filter, update]);

  // One read of older messages at a time: a second click before the button shows busy would read the same page again.
  const olderInFlight = useRef(false);
  const loadOlder = useCallback(() => {
    const open = current.current?.open;
    if (!open || open.nextBeforeId === null || olderInFlight.current) return;
    olderInFlight.current = true;
    setLoadingOlder(true);
    api
      .thread(open.peer, filter, open.nextBeforeId)
      .then((page) => update((state) => (state ? withOlderMessages(state, page) : state)))
      .catch((reason: Error) => setThreadError(reason))
      .finally(() => {
        olderInFlight.current = false;
        setLoadingOlder(false);
      });
  }, [api, filter, update]);

  const status = useSyncExternalStore(stream ? (notify) => stream.onStatus(notify) : NO_STATUS, () => stream?.status ?? 'connecting');
  return { state, error, threadError, status, loadingMore, loadingOlder, loadMore, loadOlder, reload: () => setGeneration((n) => n + 1) };
}
