import {
  AuthorizationServer,
  baseUrlOf,
  isAppError,
  registerOAuthRoutes,
  type AddressPolicy,
  type App,
  type Database,
  type MembershipStore,
  type OAuthResourceSpec,
  type PlatformTables,
  type Rate,
  type WebSessions,
} from '@switchboard/core';
import { z } from 'zod';
import { FlowsError } from '../domain/errors.ts';
import type { OrgStore } from '../store/org-store.ts';
import { bearer } from './schema.ts';

/** The path of an organization's MCP endpoint (its flows as tools, issue 24): the resource its OAuth tokens are for. */
export const FLOWS_MCP_PATH = '/api/llm/{scope_key}/mcp';

/**
 * The flow service as an OAuth protected resource (mcp.md, "Signing in"): each organization's MCP endpoint,
 * the one scope `flows:run`, and a grant for the organization the endpoint's path names, offered only to a
 * person who may see it (a member, or an admin).
 */
export function flowsOAuthSpec(orgs: OrgStore, memberships: MembershipStore): OAuthResourceSpec {
  return {
    service: 'flows',
    realm: 'switchboard-flows',
    title: 'the flow service',
    endpoints: [{ path: FLOWS_MCP_PATH }],
    levels: [{ id: 'run', label: 'Run flows', description: "Run the organization's flows that are enabled as MCP tools.", scopes: ['flows:run'] }],
    scopeNoun: 'organization',
    grantsPlace: 'LLM Hub → Tokens',
    async choices(user, pinned) {
      const codes = user.role === 'admin' ? undefined : await memberships.scopesOf('flows', user.id);
      const visible = await orgs.listOrgs(codes);
      return visible.filter((org) => pinned === undefined || org.code === pinned).map((org) => ({ key: org.code, name: org.name }));
    },
  };
}

/** What the flow service's OAuth needs. */
export interface FlowsOAuthDeps {
  platform: Database<PlatformTables>;
  web: WebSessions;
  orgs: OrgStore;
  memberships: MembershipStore;
  publicBaseUrl: string | undefined;
  /** Which addresses client ID metadata documents may come from (OAUTH_ALLOWED_HOSTS). */
  allowedHosts: AddressPolicy;
  /** Dynamic client registrations stored per client address within a window (OAUTH_REGISTRATION_RATE). */
  registrationRate?: Rate;
  now?: () => Date;
  /** Certificates (PEM) trusted when fetching client metadata documents (tests). */
  ca?: string;
}

const grantParams = z.object({ org_code: z.string(), grant_id: z.string() });
const orgParams = z.object({ org_code: z.string() });

/**
 * Mounts the authorization server on the flow service, the grants of an organization beside its tokens
 * (`GET`/`DELETE /api/llm/{org_code}/oauth-grants…`, manage scope: LLM Hub → Tokens), and the challenges that
 * send an MCP client to sign in: a 401 or an `insufficient_scope` 403 under /api/llm/{org_code}/ names the
 * organization's endpoint metadata. Returns the server, whose access tokens the authorizer checks.
 */
export async function registerFlowsOAuth(app: App, deps: FlowsOAuthDeps): Promise<AuthorizationServer> {
  const oauth = new AuthorizationServer({
    platform: deps.platform.db,
    spec: flowsOAuthSpec(deps.orgs, deps.memberships),
    documents: { policy: deps.allowedHosts, ca: deps.ca },
    registrationRate: deps.registrationRate,
    now: deps.now,
  });
  await registerOAuthRoutes(app, { server: oauth, web: deps.web, publicBaseUrl: deps.publicBaseUrl });
  // onError runs before the service's error handler and may add headers: the challenge goes on the answer there.
  app.addHook('onError', (request, reply, error, done) => {
    const orgCode = (request.params as { org_code?: unknown } | undefined)?.org_code;
    if (isAppError(error) && (error.code === 'unauthorized' || error.code === 'insufficient_scope') && typeof orgCode === 'string') {
      const path = FLOWS_MCP_PATH.replace('{scope_key}', encodeURIComponent(orgCode));
      reply.header(
        'www-authenticate',
        oauth.challenge(baseUrlOf(request, deps.publicBaseUrl), path, error.code === 'insufficient_scope' ? 'insufficient_scope' : undefined),
      );
    }
    done();
  });
  const tags = ['tokens'];
  app.get(
    '/api/llm/:org_code/oauth-grants',
    {
      config: { scope: 'manage' },
      schema: {
        tags,
        summary: 'The MCP clients people signed in to this organization with (OAuth grants; never a token)',
        params: orgParams,
        security: bearer,
      },
    },
    async (request) => ({
      grants: await oauth.listGrants(request.principal!.orgCode),
    }),
  );
  app.delete(
    '/api/llm/:org_code/oauth-grants/:grant_id',
    {
      config: { scope: 'manage' },
      schema: { tags, summary: 'Revoke an OAuth grant: its tokens are refused from their next use', params: grantParams, security: bearer },
    },
    async (request) => {
      if (!(await oauth.revokeGrant(request.principal!.orgCode, request.params.grant_id))) {
        throw new FlowsError('not_found', `OAuth grant "${request.params.grant_id}" not found (or already revoked)`, 'grant_not_found', { param: 'grant_id' });
      }
      return { revoked: true };
    },
  );
  return oauth;
}
