import type { ReactNode } from 'react';
import { ResourceList, type ListSource } from './resource-list.tsx';
import { Badge } from './states.tsx';

// The wire shape of core's PresentedGrant (core/src/oauth/authorization-server.ts), declared here again because the kit,
// a browser bundle, does not depend on the server package.
/** An OAuth grant as the services list it (`GET …/oauth-grants`): an MCP client a person signed in with, never a token. */
export interface OAuthGrant {
  id: string;
  client_name: string;
  client_id: string;
  user_email: string;
  /** The access level granted: `read`, `write` (the ticket board) or `run` (flows). */
  access: string;
  scope: string;
  created_at: string;
  last_used_at: string | null;
}

/** The access levels as the consent page names them. */
const ACCESS_LABELS: Record<string, string> = { read: 'Read only', write: 'Read and write', run: 'Run flows' };

/**
 * The MCP clients people signed in with (OAuth), listed beside the tokens: **Client** (its name, its id
 * under it), **User**, **Access**, **Created**, **Last used**, and **Revoke**, confirmed in a dialog whose
 * button is also **Revoke**. `where` says what the grant is for ("this project").
 */
export function OAuthGrantsList({
  source,
  revoke,
  where,
  heading,
}: {
  source: ListSource<OAuthGrant>;
  revoke: (grant: OAuthGrant) => Promise<unknown>;
  where: string;
  heading?: (title: string) => ReactNode;
}) {
  const title = 'Signed-in clients';
  return (
    <ResourceList
      noun="signed-in clients"
      source={source}
      header={() => (
        <div className="section">
          {heading ? heading(title) : <h2>{title}</h2>}
          <p className="muted page-intro">
            MCP clients given only the endpoint's URL ask their user to sign in. Each sign-in acts as that person on {where}, with the access they chose, until
            revoked here.
          </p>
        </div>
      )}
      caption={`MCP clients signed in to ${where} with OAuth`}
      rowKey={(grant) => grant.id}
      columns={[
        {
          header: 'Client',
          className: 'cell-name',
          title: (grant) => grant.client_id,
          cell: (grant) => (
            <div className="stack tight">
              <span>{grant.client_name}</span>
              <span className="faint mono truncate">{grant.client_id}</span>
            </div>
          ),
        },
        { header: 'User', cell: (grant) => grant.user_email },
        {
          header: 'Access',
          title: (grant) => grant.scope,
          cell: (grant) => <Badge kind={grant.access === 'read' ? undefined : 'warning'}>{ACCESS_LABELS[grant.access] ?? grant.access}</Badge>,
        },
        { header: 'Signed in', time: (grant) => grant.created_at },
        { header: 'Last used', time: (grant) => grant.last_used_at },
      ]}
      actions={[
        {
          label: 'Revoke',
          name: (grant) => `Revoke ${grant.client_name} (${grant.user_email})`,
          variant: 'danger',
          confirm: {
            title: (grant) => `Revoke ${grant.client_name}?`,
            message: (grant) =>
              `${grant.client_name} can no longer act as ${grant.user_email} on ${where}: its next call is refused, on every instance. To use it again, connect it and sign in again.`,
            confirmLabel: 'Revoke',
            run: revoke,
            done: (grant) => `${grant.client_name} revoked`,
          },
        },
      ]}
      empty={{
        title: 'No signed-in clients',
        children: `An MCP client connected by URL alone (Claude Code's /mcp, claude.ai, VS Code, Cursor) asks its user to sign in and pick ${where}; each sign-in is listed here, where it can be revoked.`,
      }}
    />
  );
}
