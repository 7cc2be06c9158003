import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { hostAllowed, refusalOf, type AddressPolicy } from './ssrf-policy.ts';

/** A request that may not be made: its address is private, loopback or link-local. */
export class AddressRefused extends Error {
  constructor(host: string, reason: string) {
    super(`Refused to connect to ${host}: ${reason}`);
    this.name = 'AddressRefused';
  }
}

/** What a checked request sends. */
export interface SafeRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** Redirects followed (each hop checked again); default 5, 0 refuses any redirect. */
  maxRedirects?: number;
  /** Certificates (PEM) trusted for https besides the system's: a deployment's private CA. */
  ca?: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A DNS lookup that checks every address a name resolves to and hands the
 * connection exactly the checked addresses: the socket connects to what was
 * checked, so a second resolution cannot swap in a private address.
 */
function checkedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family as number | undefined, hints: options.hints }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      for (const entry of addresses) {
        const refusal = refusalOf(policy, entry.address);
        if (refusal) return callback(new AddressRefused(hostname, refusal), '', 0);
      }
      if (addresses.length === 0) return callback(new Error(`${hostname} did not resolve`), '', 0);
      if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function checkTarget(url: URL, policy: AddressPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AddressRefused(url.host, `only http and https URLs are allowed, not ${url.protocol}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (hostAllowed(policy, host)) return;
  // An IP literal never goes through the lookup: check it here.
  if (isIP(host) !== 0) {
    const refusal = refusalOf(policy, host);
    if (refusal) throw new AddressRefused(host, refusal);
  }
}

function once(url: URL, request: SafeRequest, policy: AddressPolicy): Promise<http.IncomingMessage> {
  checkTarget(url, policy);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const lookup = hostAllowed(policy, host) ? undefined : checkedLookup(policy);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    // No agent: every checked request gets its own connection, so a socket checked for one host is never reused for another.
    const tls = request.ca === undefined ? {} : { ca: request.ca };
    const outgoing = client.request(url, { method: request.method, headers, lookup, agent: false, signal: request.signal, ...tls }, resolve);
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/**
 * An outbound request made for a caller (a flow's tool, an OAuth client's metadata document): refuses private, loopback and link-local
 * addresses (IP literals, every resolved address, every redirect hop) unless
 * the policy allows them, and follows redirects itself so that each hop is
 * checked. Resolves with the final response (its body unread).
 */
export async function safeRequest(target: string | URL, request: SafeRequest, policy: AddressPolicy): Promise<{ url: URL; response: http.IncomingMessage }> {
  let url = new URL(target);
  let current = request;
  const limit = request.maxRedirects ?? 5;
  for (let hop = 0; ; hop++) {
    const response = await once(url, current, policy);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || !location) return { url, response };
    response.resume();
    if (hop >= limit) throw new Error(`More than ${limit} redirects`);
    const next = new URL(location, url);
    const status = response.statusCode!;
    // 303 (and 301/302 after a POST, as browsers do) turn into a GET without a body.
    if (status === 303 || ((status === 301 || status === 302) && current.method !== 'GET' && current.method !== 'HEAD')) {
      const headers = Object.fromEntries(Object.entries(current.headers).filter(([name]) => !/^content-/i.test(name)));
      current = { ...current, method: 'GET', headers, body: undefined };
    }
    if (next.origin !== url.origin) {
      // Credentials set for one host are not sent to another.
      current = { ...current, headers: Object.fromEntries(Object.entries(current.headers).filter(([name]) => !/^(authorization|cookie)$/i.test(name))) };
    }
    url = next;
  }
}

/** Reads a response body up to `limit` bytes; larger answers fail rather than fill memory. */
export async function readLimited(response: http.IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      response.destroy();
      throw new Error(`The response is larger than ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A `fetch` with the same checks, for the MCP client transport (its streams pass through as web streams). */
export function policyFetch(policy: AddressPolicy): typeof fetch {
  return async (input, init) => {
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))
      throw new Error('policyFetch sends string or byte bodies only');
    const { response } = await safeRequest(
      urlOf(input),
      { method: init?.method ?? 'GET', headers: headersOf(init), body: body ?? undefined, signal: init?.signal ?? undefined },
      policy,
    );
    const status = response.statusCode ?? 500;
    const nullBody = status === 204 || status === 304 || init?.method === 'HEAD';
    if (nullBody) response.resume();
    return new Response(nullBody ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
      status,
      statusText: response.statusMessage,
      headers: webHeaders(response.headers),
    });
  };
}

/** The URL a fetch call names. */
export function urlOf(input: string | URL | Request): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/** A fetch call's request headers as node:http takes them (a plain object, lower-case names). */
export function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** A node:http response's headers as a fetch Response takes them (repeated headers appended). */
export function webHeaders(headers: http.IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const item of value) out.append(name, item);
    else if (value !== undefined) out.set(name, value);
  }
  return out;
}
