/** The typed fetch every UI uses for its own service's public API (same origin, session cookie). */

/** An error answer of the API, with the status and the service's error code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    /** The parsed error body, for fields such as `details` or `latest_version`. */
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** Called when any request answers 401: the session ended, so the app shows the sign-in page. */
let onUnauthorized: (() => void) | undefined;

/** Registers what happens when a request answers 401 (the session gate installs it). */
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  onUnauthorized = handler;
}

/** Options of one API call. */
export interface ApiOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Leave a 401 to the caller instead of ending the session (the sign-in form). */
  allowUnauthorized?: boolean;
}

/** Ends the session in the UI as a 401 answer does (for requests not sent through api(), e.g. uploads). */
export function reportUnauthorized(): void {
  onUnauthorized?.();
}

/** The ApiError of an error answer's status and parsed body (`{"error": {"message", "code"}}` or `{"detail"}`). */
export function apiErrorOf(status: number, body: unknown, fallback: string): ApiError {
  return errorOf(status, body, fallback);
}

function errorOf(status: number, body: unknown, fallback: string): ApiError {
  const error = (body as { error?: { message?: string; code?: string } } | null)?.error;
  const detail = (body as { detail?: string } | null)?.detail;
  return new ApiError(status, error?.message ?? detail ?? fallback, error?.code, body);
}

/** Sends a request to the service's API; resolves with the parsed JSON (undefined for 204), rejects with ApiError. */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, { method: options.method ?? 'GET', headers, body, signal: options.signal, credentials: 'same-origin' });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'The service could not be reached. Check your connection and try again.', 'network_error', null);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    if (response.status === 401 && !options.allowUnauthorized) onUnauthorized?.();
    throw errorOf(response.status, parsed, `${response.status} ${response.statusText || 'error'}`);
  }
  return (parsed ?? text) as T;
}

/** A user as the session API answers it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
}
