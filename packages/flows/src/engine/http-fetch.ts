import http from 'node:http';
import https from 'node:https';
import { headersOf, urlOf } from '@switchboard/core';
import { H2Pool, type H2PoolOptions } from './h2-pool.ts';
import { headerPairs, settleAnswer, unreachableOr, type ProviderCall } from './provider-response.ts';

export { ProviderUnreachable, unreachableOr } from './provider-response.ts';

// Keep-alive pool for http: providers, shared by every provider call: the upstream connection is reused across runs.
// No cap on open sockets: a cap would queue streams behind each other (1,000 open SSE runs need 1,000 upstream calls).
const httpAgent = new http.Agent({ keepAlive: true, maxFreeSockets: 256 });

/**
 * A provider fetch, and how to close its HTTP/2 sessions and https connections (the idle ones close on their own).
 * `rawEventStreams` is the same fetch, except that a 2xx event stream's Response has no body: its text is read
 * with eventStreamText(response), straight from the transport (the openai chat model's streams).
 */
export type ProviderFetch = typeof fetch & { close(): void; rawEventStreams: typeof fetch };

/** Options of a provider fetch: its HTTP/2 pool's, whose `ca` its https agent trusts too. */
export type ProviderFetchOptions = H2PoolOptions;

/**
 * A `fetch` for the AI SDK providers over node:http/http2 (see providerFetch),
 * with its own HTTP/2 sessions and https agent.
 */
export function createProviderFetch(options: ProviderFetchOptions = {}): ProviderFetch {
  const h2 = new H2Pool(options);
  const httpsAgent = new https.Agent({ keepAlive: true, maxFreeSockets: 256, ...(options.ca ? { ca: options.ca } : {}) });
  const send = async (input: Parameters<typeof fetch>[0], init: RequestInit | undefined, rawEventStream: boolean): Promise<Response> => {
    const url = new URL(urlOf(input));
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== 'string') return fetch(input, init);
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    const call: ProviderCall = { method: init?.method ?? 'GET', signal, headers: requestHeaders(init), body: body ?? undefined, rawEventStream };
    if (url.protocol === 'https:') {
      const answer = await h2.request(url, call);
      if (answer) return answer;
    }
    return http1Request(url, call, url.protocol === 'https:' ? httpsAgent : httpAgent);
  };
  const providerFetch: typeof fetch = (input, init) => send(input, init, false);
  return Object.assign(providerFetch, {
    rawEventStreams: ((input, init) => send(input, init, true)) as typeof fetch,
    close: () => {
      h2.close();
      httpsAgent.destroy();
    },
  });
}

/**
 * A `fetch` for the AI SDK providers. The providers (request building,
 * response parsing, streaming) are the AI SDK's; only the transport is this.
 * Node 20's built-in fetch costs about 2 ms of CPU per call (web streams all
 * the way down), several times a node:http round trip, which is most of a
 * flow's overhead budget. https: providers are called over HTTP/2 when they
 * offer it (many calls share one connection: 10,000 open streams need a few
 * sockets, not 10,000), over HTTP/1.1 with keep-alive otherwise, as are http:
 * ones. Supports what provider calls use: string bodies, AbortSignal,
 * streamed responses.
 */
export const providerFetch: ProviderFetch = createProviderFetch();

/**
 * A call's headers as node:http and node:http2 take them (lower-case names). The openai client and the AI SDK pass
 * a Headers, read as it is instead of copied into another (headersOf), which builds and sorts a second one per call.
 */
function requestHeaders(init: RequestInit | undefined): Record<string, string> {
  if (!(init?.headers instanceof Headers)) return headersOf(init);
  const out: Record<string, string> = {};
  init.headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** One call over HTTP/1.1 through a keep-alive agent, one socket per call in flight. */
function http1Request(url: URL, call: ProviderCall, agent: http.Agent): Promise<Response> {
  const { method, signal, headers, body } = call;
  const answerCall = { method, rawEventStream: call.rawEventStream };
  const client = url.protocol === 'https:' ? https : http;
  if (body) headers['content-length'] = String(Buffer.byteLength(body));
  const request = client.request(url, { method, headers, agent });
  // The closures below live as long as a streamed answer does: they are made where the call's body is out of reach.
  const answer = new Promise<Response>((resolve, reject) => {
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      const init = { status: response.statusCode ?? 500, statusText: response.statusMessage, headers: headerPairs(response.headers) };
      settleAnswer({ init, body: response, complete: () => response.complete, cancel: () => response.destroy() }, answerCall, resolve, reject);
    });
    const onAbort = () => request.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('close', () => signal?.removeEventListener('abort', onAbort));
    request.on('error', (error) => reject(answered || signal?.aborted ? error : unreachableOr(error, url)));
  });
  request.end(body);
  return answer;
}
