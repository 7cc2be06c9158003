/**
 * The error codes the authorization server answers, by the names their RFCs give them (RFC 6749 §4.1.2.1 and
 * §5.2, RFC 7591 §3.2.2, RFC 8707 §2), with the HTTP status each gets when it is not a redirect.
 */
export const OAUTH_ERROR_STATUS = {
  invalid_request: 400,
  /** An unknown client, or a client metadata document that cannot be used: 401, as RFC 6749 §5.2 allows. */
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  /** A `resource` that is not one of this deployment's MCP endpoints (RFC 8707). */
  invalid_target: 400,
  access_denied: 403,
  /** Registration: a redirect URI that is neither https nor loopback http (RFC 7591). */
  invalid_redirect_uri: 400,
  /** Registration: a body that is not valid client metadata (RFC 7591). */
  invalid_client_metadata: 400,
  server_error: 500,
  temporarily_unavailable: 503,
} as const;

/** One of the OAuth error codes. */
export type OAuthErrorCode = keyof typeof OAUTH_ERROR_STATUS;

/** An OAuth error whose description is safe to show the client (never a secret, never a stack). */
export class OAuthError extends Error {
  /** HTTP status when answered directly (not by a redirect). */
  readonly status: number;

  constructor(
    readonly code: OAuthErrorCode,
    /** `error_description`: what was wrong and what to do, for the developer of the client. */
    readonly description: string,
    /** The status when not the code's own (413 for a body over the limit, 429 for too many registrations). */
    status?: number,
    /** Seconds for `Retry-After` (a 429). */
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
    this.name = 'OAuthError';
    this.status = status ?? OAUTH_ERROR_STATUS[code];
  }
}

/** The JSON body of an OAuth error: `{"error", "error_description"}`. */
export function oauthErrorBody(error: OAuthError): { error: OAuthErrorCode; error_description: string } {
  return { error: error.code, error_description: error.description };
}
