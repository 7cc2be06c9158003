// A server-sent events client for tests (Node has no EventSource): the ticket board's and the SMS console's streams.

/** One server-sent event as a test reads it. */
export interface ReceivedEvent {
  id: string | undefined;
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON the stream sent, field by field.
  data: any;
  /** When it arrived (performance.now()). */
  at: number;
}

/** An open event stream: every event so far, and a way to wait for more. */
export interface EventStream {
  status: number;
  headers: Headers;
  /** The JSON body of a refused stream (not 200). */
  // biome-ignore lint/suspicious/noExplicitAny: a test compares whatever error body the service sent.
  error: any;
  events: ReceivedEvent[];
  /** Comment lines received (`: ping`). */
  comments: string[];
  /** Waits until `count` events of type `name` (default `change`) arrived (in total), or fails after `timeoutMs`; answers them all. */
  changes(count: number, timeoutMs?: number, name?: string): Promise<ReceivedEvent[]>;
  /** Waits for the first event matching `predicate`. */
  waitFor(predicate: (event: ReceivedEvent) => boolean, timeoutMs?: number): Promise<ReceivedEvent>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Opens `GET url` as an event stream with fetch (Node has no EventSource) and parses it as a browser does:
 * `id:`, `event:`, `data:` lines, a blank line ending each event, `:` comments.
 */
export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: ReceivedEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of waiters) waiter();
  };
  let ended: Promise<void> = Promise.resolve();
  const error = response.ok ? undefined : await response.json();
  if (response.ok && response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    ended = (async () => {
      let buffer = '';
      let current: { id?: string; event?: string; data: string[] } = { data: [] };
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
            const line = buffer.slice(0, newline);
            buffer = buffer.slice(newline + 1);
            if (line === '') {
              if (current.data.length > 0) {
                events.push({ id: current.id, event: current.event ?? 'message', data: JSON.parse(current.data.join('\n')), at: performance.now() });
                notify();
              }
              current = { data: [] };
            } else if (line.startsWith(':')) {
              comments.push(line.slice(1).trim());
              notify();
            } else {
              const colon = line.indexOf(':');
              const field = colon < 0 ? line : line.slice(0, colon);
              const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'id') current.id = value;
              else if (field === 'event') current.event = value;
              else if (field === 'data') current.data.push(value);
            }
          }
        }
      } catch {
        // Aborted by close().
      }
      notify();
    })();
  }
  const waitFor = (predicate: (event: ReceivedEvent) => boolean, timeoutMs = 5000) =>
    new Promise<ReceivedEvent>((resolve, reject) => {
      const check = () => {
        const found = events.find(predicate);
        if (!found) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events.map((e) => [e.event, e.data]))}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    status: response.status,
    headers: response.headers,
    error,
    events,
    comments,
    ended,
    waitFor,
    async changes(count, timeoutMs = 5000, name = 'change') {
      await waitFor(() => events.filter((e) => e.event === name).length >= count, timeoutMs);
      return events.filter((e) => e.event === name);
    },
    close: () => controller.abort(),
  };
}
