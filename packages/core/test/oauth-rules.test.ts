import { describe, expect, it } from 'vitest';
import { parseClientMetadata, displayName } from '../src/oauth/client-metadata.ts';
import type { OAuthError } from '../src/oauth/oauth-errors.ts';
import {
  challengeProblem,
  clientIdDocumentUrl,
  matchEndpointPath,
  matchResource,
  offeredLevels,
  parseScope,
  redirectUriMatches,
  redirectUriProblem,
  s256Challenge,
  verifierMatches,
  type AccessLevel,
} from '../src/oauth/oauth-rules.ts';
import { singleParams, redirectWith } from '../src/oauth/authorize-request.ts';
import { bearerChallenge } from '../src/oauth/resource-spec.ts';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

describe('PKCE (S256 only)', () => {
  it('computes the RFC 7636 appendix B example challenge', () => {
    expect(s256Challenge(VERIFIER)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('accepts the verifier of a challenge and refuses any other, or a malformed one', () => {
    const challenge = s256Challenge(VERIFIER);
    expect(verifierMatches(VERIFIER, challenge)).toBe(true);
    expect(verifierMatches(`${VERIFIER.slice(0, -1)}Y`, challenge)).toBe(false);
    expect(verifierMatches('short', s256Challenge('short'))).toBe(false);
    expect(verifierMatches(undefined, challenge)).toBe(false);
  });

  it('requires a challenge with method S256', () => {
    const challenge = s256Challenge(VERIFIER);
    expect(challengeProblem(challenge, 'S256')).toBeUndefined();
    expect(challengeProblem(undefined, 'S256')).toBe('code_challenge is required (PKCE with S256)');
    expect(challengeProblem(challenge, undefined)).toBe('code_challenge_method must be S256 (plain is not accepted)');
    expect(challengeProblem(challenge, 'plain')).toBe('code_challenge_method must be S256, not "plain"');
    expect(challengeProblem('abc', 'S256')).toBe('code_challenge must be the 43-character base64url SHA-256 of the verifier');
  });
});

describe('redirect URIs', () => {
  it('allows https and loopback http only, without fragment or credentials', () => {
    for (const ok of ['https://app.example/cb', 'http://127.0.0.1:3000/cb', 'http://localhost:9/callback', 'http://[::1]/cb'])
      expect(redirectUriProblem(ok), ok).toBeUndefined();
    expect(redirectUriProblem('http://app.example/cb')).toBe(
      '"http://app.example/cb" must be an https URL, or http on a loopback address (127.0.0.1, [::1] or localhost)',
    );
    expect(redirectUriProblem('cursor://anysphere/cb')).toMatch(/must be an https URL/);
    expect(redirectUriProblem('https://app.example/cb#x')).toBe('"https://app.example/cb#x" must not contain a fragment');
    expect(redirectUriProblem('https://u:p@app.example/cb')).toMatch(/user name or password/);
    expect(redirectUriProblem('/relative')).toBe('"/relative" is not an absolute URL');
  });

  it('matches the registered string, or a loopback one on another port (RFC 8252)', () => {
    const registered = ['https://app.example/cb', 'http://127.0.0.1:3000/callback'];
    expect(redirectUriMatches(registered, 'https://app.example/cb')).toBe(true);
    expect(redirectUriMatches(registered, 'http://127.0.0.1:51234/callback')).toBe(true);
    expect(redirectUriMatches(registered, 'http://127.0.0.1:51234/other')).toBe(false);
    expect(redirectUriMatches(registered, 'http://localhost:3000/callback')).toBe(false);
    expect(redirectUriMatches(registered, 'https://app.example/cb/')).toBe(false);
    expect(redirectUriMatches(registered, 'https://app.example:444/cb')).toBe(false);
  });
});

describe('scopes and access levels', () => {
  const levels: AccessLevel[] = [
    { id: 'read', label: 'Read only', scopes: ['tickets:read'], readOnly: true },
    { id: 'write', label: 'Read and write', scopes: ['tickets:read', 'tickets:write'] },
  ];
  const ids = (list: AccessLevel[]) => list.map((level) => level.id);

  it('splits a scope string and refuses characters RFC 6749 forbids', () => {
    expect(parseScope(undefined)).toBeUndefined();
    expect(parseScope('  ')).toBeUndefined();
    expect(parseScope('tickets:read  tickets:write tickets:read')).toEqual(['tickets:read', 'tickets:write']);
    expect(() => parseScope('a"b')).toThrow('scope "a"b" has characters a scope may not contain');
  });

  it('offers the levels up to the widest asked for, every level when nothing was asked, read only on a read-only endpoint', () => {
    expect(ids(offeredLevels(levels, undefined, false))).toEqual(['read', 'write']);
    expect(ids(offeredLevels(levels, ['tickets:read'], false))).toEqual(['read']);
    expect(ids(offeredLevels(levels, ['tickets:write'], false))).toEqual(['read', 'write']);
    expect(ids(offeredLevels(levels, ['openid', 'offline_access'], false))).toEqual(['read', 'write']);
    expect(ids(offeredLevels(levels, ['tickets:read', 'tickets:write'], true))).toEqual(['read']);
  });
});

describe('resources', () => {
  const endpoints = [{ path: '/api/mcp/v1/mcp' }, { path: '/api/mcp/v1/mcp/readonly', readOnly: true }];
  const base = 'https://board.example';

  it('matches an endpoint of this origin, trailing slash ignored', () => {
    expect(matchResource('https://board.example/api/mcp/v1/mcp', base, endpoints)).toEqual({ endpoint: endpoints[0], scopeKey: undefined });
    expect(matchResource('https://board.example/api/mcp/v1/mcp/readonly/', base, endpoints)).toEqual({ endpoint: endpoints[1], scopeKey: undefined });
  });

  it('names what is wrong with a missing, malformed or foreign resource', () => {
    expect(matchResource(undefined, base, endpoints)).toBe('resource is required: the URL of the MCP endpoint the token is for');
    expect(matchResource('https://board.example/api/mcp/v1/mcp?x=1', base, endpoints)).toMatch(/without query or fragment/);
    expect(matchResource('https://evil.example/api/mcp/v1/mcp', base, endpoints)).toBe(
      'resource "https://evil.example/api/mcp/v1/mcp" is not an MCP endpoint of this server (https://board.example/api/mcp/v1/mcp, https://board.example/api/mcp/v1/mcp/readonly)',
    );
    expect(matchResource('https://board.example/api/mcp/v1/tickets', base, endpoints)).toMatch(/is not an MCP endpoint/);
  });

  it("reads the organization out of a flows endpoint's path", () => {
    const flows = [{ path: '/api/llm/{scope_key}/mcp' }];
    expect(matchEndpointPath(flows, '/api/llm/acme/mcp')?.scopeKey).toBe('acme');
    expect(matchEndpointPath(flows, '/api/llm/acme/x/mcp')).toBeUndefined();
    expect(matchEndpointPath(flows, '/api/llm//mcp')).toBeUndefined();
  });
});

describe('client IDs and metadata', () => {
  it('takes an https URL with a path as a metadata document, and says what is wrong with other URLs', () => {
    expect(clientIdDocumentUrl('client_abc')).toBeUndefined();
    expect((clientIdDocumentUrl('https://app.example/oauth/client.json') as URL).href).toBe('https://app.example/oauth/client.json');
    expect(clientIdDocumentUrl('http://app.example/client.json')).toMatch(/must be an https URL/);
    expect(clientIdDocumentUrl('https://app.example/')).toMatch(/must have a path/);
    expect(clientIdDocumentUrl('https://app.example/a/../client.json')).toMatch(/\. or \.\. segments/);
    expect(clientIdDocumentUrl('https://app.example/c.json#x')).toMatch(/fragment/);
  });

  const refusal = (body: unknown, source: 'registration' | 'document' = 'registration') => {
    try {
      parseClientMetadata(body, source);
    } catch (error) {
      return { code: (error as OAuthError).code, description: (error as OAuthError).description };
    }
    return undefined;
  };

  it('refuses malformed registrations with RFC 7591 errors', () => {
    expect(refusal([])).toEqual({ code: 'invalid_client_metadata', description: 'The client metadata must be a JSON object' });
    expect(refusal({})).toEqual({ code: 'invalid_redirect_uri', description: 'redirect_uris must list at least one redirect URI' });
    expect(refusal({ redirect_uris: 'https://a.example/cb' })).toEqual({
      code: 'invalid_redirect_uri',
      description: 'redirect_uris: must be an array of URLs',
    });
    expect(refusal({ redirect_uris: ['http://a.example/cb'] })?.code).toBe('invalid_redirect_uri');
    expect(refusal({ redirect_uris: ['https://a.example/cb'], grant_types: ['client_credentials'] })).toEqual({
      code: 'invalid_client_metadata',
      description: 'grant_types: "client_credentials" is not served here (only authorization_code and refresh_token)',
    });
    expect(refusal({ redirect_uris: ['https://a.example/cb'], client_name: 5 })).toEqual({
      code: 'invalid_client_metadata',
      description: 'client_name: Invalid input: expected string, received number',
    });
    expect(refusal({ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }, 'document')?.code).toBe(
      'invalid_client_metadata',
    );
  });

  it('registers a client asking for a secret as a public one, and names a nameless client by its redirect host', () => {
    const metadata = parseClientMetadata(
      { redirect_uris: ['http://127.0.0.1:33418/callback'], token_endpoint_auth_method: 'client_secret_basic', extra: true },
      'registration',
    );
    expect(metadata.token_endpoint_auth_method).toBe('none');
    expect(displayName(metadata)).toBe('127.0.0.1:33418');
  });
});

describe('request parameters and answers', () => {
  it('refuses a parameter given twice (RFC 6749 §3.1) and drops empty ones', () => {
    expect(singleParams(new URLSearchParams('a=1&b=&c=3'))).toEqual({ a: '1', c: '3' });
    expect(() => singleParams(new URLSearchParams('state=1&state=2'))).toThrow('state is given more than once');
  });

  it("adds the answer to the redirect URI's own query", () => {
    expect(redirectWith('https://app.example/cb?x=1', { code: 'c', state: 's', iss: 'https://as.example', error: undefined })).toBe(
      'https://app.example/cb?x=1&code=c&state=s&iss=https%3A%2F%2Fas.example',
    );
  });

  it('quotes the challenge parameters', () => {
    expect(
      bearerChallenge({
        realm: 'switchboard-tickets',
        resourceMetadata: 'https://b.example/.well-known/oauth-protected-resource/mcp',
        scope: 'tickets:read tickets:write',
      }),
    ).toBe(
      'Bearer realm="switchboard-tickets", resource_metadata="https://b.example/.well-known/oauth-protected-resource/mcp", scope="tickets:read tickets:write"',
    );
    expect(bearerChallenge({ realm: 'r', resourceMetadata: 'm', scope: 's', error: 'insufficient_scope' })).toBe(
      'Bearer realm="r", error="insufficient_scope", resource_metadata="m", scope="s"',
    );
  });
});
