import { randomBytes } from 'node:crypto';
import type { Rate } from '../config.ts';
import { AddressRefused, readLimited, safeRequest } from '../safe-fetch.ts';
import type { AddressPolicy } from '../ssrf-policy.ts';
import { parseClientMetadata, type ClientMetadata } from './client-metadata.ts';
import { OAuthError } from './oauth-errors.ts';
import { clientIdDocumentUrl, shorten } from './oauth-rules.ts';
import type { OAuthStore, StoredClient } from './oauth-store.ts';

/** How client ID metadata documents are fetched. */
export interface DocumentFetchOptions {
  /** Which addresses may be fetched (the SSRF guard): private and loopback ones only when allowed. */
  policy: AddressPolicy;
  /** Longest wait for a document (default 5 s). */
  timeoutMs?: number;
  /** Largest document read (default 10 KiB). */
  maxBytes?: number;
  /** How long a fetched document is used before it is fetched again (default 5 minutes). */
  cacheMs?: number;
  /** Certificates (PEM) trusted besides the system's (a private CA; tests). */
  ca?: string;
}

/** Registrations stored per client address when the service sets none: 20 an hour. */
export const DEFAULT_REGISTRATION_RATE: Rate = { count: 20, windowMs: 3_600_000 };

/** A window's length as a person reads it: `an hour`, `30 minutes`, `45 seconds`. */
function describeWindow(ms: number): string {
  const [amount, unit] = ms % 3_600_000 === 0 ? [ms / 3_600_000, 'hour'] : ms % 60_000 === 0 ? [ms / 60_000, 'minute'] : [Math.ceil(ms / 1000), 'second'];
  return amount === 1 ? `${unit === 'hour' ? 'an' : 'a'} ${unit}` : `${amount} ${unit}s`;
}

/** What a registration answers (RFC 7591 §3.2.1). */
export type RegisteredClient = ClientMetadata & { client_id: string; client_id_issued_at: number };

/**
 * The clients the server knows: registered dynamically (RFC 7591), or named by the URL of their metadata
 * document, fetched through the SSRF guard without following redirects, within size and time limits, and kept
 * a few minutes in the platform database so every instance sees the same copy.
 */
export class ClientRegistry {
  constructor(
    private readonly store: OAuthStore,
    private readonly fetching: DocumentFetchOptions,
    private readonly now: () => Date,
    /** Registrations stored per client address within a window (OAUTH_REGISTRATION_RATE). */
    private readonly registrationRate: Rate = DEFAULT_REGISTRATION_RATE,
  ) {}

  /**
   * Registers a client from its metadata, sent from `address`; throws `invalid_redirect_uri` /
   * `invalid_client_metadata`, and 429 `temporarily_unavailable` (with `retryAfterSeconds`) once `address`
   * registered as many clients as the rate allows within its window: the endpoint takes no credentials, and
   * every registration is a row kept for good.
   */
  async register(body: unknown, address: string): Promise<RegisteredClient> {
    const now = this.now();
    const { count, windowMs } = this.registrationRate;
    const recent = await this.store.registrationsFrom(address, new Date(now.getTime() - windowMs).toISOString());
    if (recent.count >= count && recent.first !== null) {
      const reopens = Date.parse(recent.first) + windowMs;
      throw new OAuthError(
        'temporarily_unavailable',
        `Too many clients registered from this address (at most ${count} within ${describeWindow(windowMs)}); register again later, or reuse a client_id already registered`,
        429,
        Math.max(1, Math.ceil((reopens - now.getTime()) / 1000)),
      );
    }
    const metadata = parseClientMetadata(body, 'registration');
    const clientId = `client_${randomBytes(16).toString('base64url')}`;
    const stamp = now.toISOString();
    await this.store.saveClient({ clientId, kind: 'registered', metadata, createdAt: stamp, fetchedAt: stamp, registeredFrom: address });
    return { client_id: clientId, client_id_issued_at: Math.floor(now.getTime() / 1000), ...withoutUndefined(metadata) };
  }

  /** The client a `client_id` names; `invalid_client` for an unknown one or a document that cannot be used. */
  async resolve(clientId: string | undefined): Promise<StoredClient> {
    if (clientId === undefined || clientId === '') throw new OAuthError('invalid_request', 'client_id is required');
    const documentUrl = clientIdDocumentUrl(clientId);
    if (typeof documentUrl === 'string') throw new OAuthError('invalid_client', documentUrl);
    const stored = await this.store.findClient(clientId);
    if (documentUrl === undefined) {
      if (stored?.kind !== 'registered')
        throw new OAuthError('invalid_client', `Unknown client_id "${shorten(clientId)}": register the client first (POST /oauth/register)`);
      return stored;
    }
    const now = this.now();
    if (stored?.kind === 'document' && now.getTime() - Date.parse(stored.fetchedAt) < (this.fetching.cacheMs ?? 300_000)) return stored;
    const metadata = await this.fetchDocument(clientId, documentUrl);
    const client: StoredClient = { clientId, kind: 'document', metadata, createdAt: stored?.createdAt ?? now.toISOString(), fetchedAt: now.toISOString() };
    await this.store.saveClient(client);
    return client;
  }

  private async fetchDocument(clientId: string, url: URL): Promise<ClientMetadata> {
    const maxBytes = this.fetching.maxBytes ?? 10_240;
    let body: Buffer;
    try {
      const { response } = await safeRequest(
        url,
        {
          method: 'GET',
          headers: { accept: 'application/json' },
          maxRedirects: 0,
          signal: AbortSignal.timeout(this.fetching.timeoutMs ?? 5000),
          ca: this.fetching.ca,
        },
        this.fetching.policy,
      );
      if (response.statusCode !== 200) {
        response.resume();
        throw new OAuthError(
          'invalid_client',
          `The client metadata document at ${shorten(clientId)} answered HTTP ${response.statusCode} (redirects are not followed)`,
        );
      }
      body = await readLimited(response, maxBytes);
    } catch (error) {
      throw documentError(clientId, error, maxBytes);
    }
    let document: unknown;
    try {
      document = JSON.parse(body.toString('utf8'));
    } catch {
      throw new OAuthError('invalid_client', `The client metadata document at ${shorten(clientId)} is not JSON`);
    }
    const named = (document as { client_id?: unknown } | null)?.client_id;
    if (named !== clientId)
      throw new OAuthError(
        'invalid_client',
        `The client metadata document at ${shorten(clientId)} names another client_id (it must be the document's own URL)`,
      );
    try {
      return parseClientMetadata(document, 'document');
    } catch (error) {
      if (error instanceof OAuthError)
        throw new OAuthError('invalid_client', `The client metadata document at ${shorten(clientId)} is not valid: ${error.description}`);
      throw error;
    }
  }
}

/** The OAuth error a failed document fetch becomes, with its cause in words (never a stack). */
function documentError(clientId: string, error: unknown, maxBytes: number): OAuthError {
  if (error instanceof OAuthError) return error;
  const where = `The client metadata document at ${shorten(clientId)}`;
  if (error instanceof AddressRefused) return new OAuthError('invalid_client', `${where} cannot be fetched: ${error.message}`);
  const name = (error as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new OAuthError('invalid_client', `${where} did not answer in time`);
  const message = (error as Error | undefined)?.message ?? '';
  if (message.startsWith('More than 0 redirects')) return new OAuthError('invalid_client', `${where} answered with a redirect, which is not followed`);
  if (message.startsWith('The response is larger')) return new OAuthError('invalid_client', `${where} is larger than ${maxBytes} bytes`);
  return new OAuthError('invalid_client', `${where} could not be fetched (${shorten(message || 'network error')})`);
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
