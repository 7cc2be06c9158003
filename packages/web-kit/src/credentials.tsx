import type { Column, RowAction } from './resource-table.tsx';
import { timeAgo } from './format.ts';
import { Badge } from './states.tsx';

/** A credential as the services list it (a flows token, a project token, an SMS key): never its secret. */
export interface Credential {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at?: string | null;
}

/** The columns a list of credentials ends with: **Created**, **Last used** (or Never), **Status** (Active, or Revoked and when). */
export const credentialColumns: Array<Column<Credential>> = [
  { header: 'Created', time: (credential) => credential.created_at },
  { header: 'Last used', time: (credential) => credential.last_used_at },
  {
    header: 'Status',
    cell: (credential) =>
      credential.revoked_at ? <Badge kind="danger">Revoked {timeAgo(credential.revoked_at)}</Badge> : <Badge kind="success">Active</Badge>,
  },
];

/** A revoked credential's row is dimmed. */
export const dimRevoked = (credential: Credential): string | undefined => (credential.revoked_at ? 'dimmed' : undefined);

/**
 * **Revoke** on each credential not yet revoked (named `Revoke {name}`),
 * confirmed in a dialog `Revoke {what} "{name}"?` whose button is also
 * **Revoke**; `message` says what stops working.
 */
export function revokeAction(what: string, message: string, revoke: (credential: Credential) => Promise<unknown>): RowAction<Credential> {
  return {
    label: 'Revoke',
    name: (credential) => `Revoke ${credential.name}`,
    variant: 'danger',
    shown: (credential) => !credential.revoked_at,
    confirm: {
      title: (credential) => `Revoke ${what} "${credential.name}"?`,
      message: () => message,
      confirmLabel: 'Revoke',
      run: revoke,
      done: (credential) => `${what[0]!.toUpperCase()}${what.slice(1)} "${credential.name}" revoked`,
    },
  };
}
