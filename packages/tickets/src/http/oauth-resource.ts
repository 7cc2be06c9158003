import type { MembershipStore, OAuthResourceSpec } from '@switchboard/core';
import { listProjects, type Db } from '../store/project-store.ts';
import { MCP_PATH, READONLY_MCP_PATH } from './paths.ts';

/**
 * The ticket board as an OAuth protected resource (mcp.md, "Signing in"): its two MCP endpoints, the scopes
 * `tickets:read` and `tickets:write` as the consent page's **Read only** and **Read and write**, and a grant
 * for one project picked from the user's own (every project for an admin).
 */
export function ticketsOAuthSpec(db: Db, memberships: MembershipStore): OAuthResourceSpec {
  return {
    service: 'tickets',
    realm: 'switchboard-tickets',
    title: 'the ticket board',
    endpoints: [{ path: MCP_PATH }, { path: READONLY_MCP_PATH, readOnly: true }],
    levels: [
      { id: 'read', label: 'Read only', description: 'See tickets, documents, labels and members.', scopes: ['tickets:read'], readOnly: true },
      {
        id: 'write',
        label: 'Read and write',
        description: 'Also create, change, move and delete tickets and documents, and comment.',
        scopes: ['tickets:read', 'tickets:write'],
      },
    ],
    scopeNoun: 'project',
    grantsPlace: 'Settings → MCP Connection',
    async choices(user) {
      const projects = user.role === 'admin' ? await listProjects(db) : await listProjects(db, await memberships.scopesOf('tickets', user.id));
      return projects.map((project) => ({ key: project.key, name: project.name }));
    },
  };
}
