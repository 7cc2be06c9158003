import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { api } from './api.ts';
import { Button, FormError } from './forms.tsx';
import { useAction, useResource } from './hooks.ts';
import { ResourceList } from './resource-list.tsx';
import { Badge } from './states.tsx';
import { useToast } from './toast.tsx';

/** A person of an organization or project as its Members list shows them (admins see every tenant). */
export interface TenantPerson {
  id: string;
  name: string;
  email: string;
  role: string;
}

/** A user of the deployment as `GET /api/admin/users` lists them (admins only). */
interface DeploymentUser {
  id: string;
  email: string;
  name: string;
  disabled?: boolean;
  pending?: boolean;
}

/** Where a tenant's members are read and changed: its service's own members API. */
export interface TenantMembersApi {
  list(signal: AbortSignal): Promise<TenantPerson[]>;
  add(email: string): Promise<unknown>;
  remove(userId: string): Promise<unknown>;
}

/**
 * **Members** of an organization (flows, SMS) or project (board): who may see it besides the admins. An
 * admin adds a user by email, offered from the deployment's users (`/api/admin/users`; a plain email field
 * where that list cannot be read), and removes one after confirming; anyone else reads the list.
 */
export function TenantMembers({
  what,
  code,
  members: source,
  manage,
  intro,
  onChanged,
  removeNote,
}: {
  /** `organization` or `project`: the sentences name it. */
  what: string;
  /** The tenant's code or key: the list is read again when it changes. */
  code: string;
  members: TenantMembersApi;
  /** Whether the user may add and remove (an admin). */
  manage: boolean;
  /** What being a member gives, above the form. */
  intro: ReactNode;
  /** After an add or a remove (the board reads its lists again). */
  onChanged?: () => void;
  /** What else removing someone means, said in the confirmation. */
  removeNote?: string;
}) {
  const notify = useToast();
  const members = useResource((signal) => source.list(signal), [code]);
  const users = useResource(
    (signal) =>
      manage
        ? api<{ users: DeploymentUser[] }>('/api/admin/users', { signal }).then(
            (answer) => answer.users,
            () => [],
          )
        : Promise.resolve([]),
    [manage],
  );
  const [email, setEmail] = useState('');
  const { busy, error, setError, run } = useAction();
  const listId = useId();
  const inputId = useId();
  const changed = () => {
    members.reload();
    onChanged?.();
  };
  const known = new Set((members.data ?? []).map((member) => member.email));
  const offered = (users.data ?? []).filter((user) => !user.disabled && !known.has(user.email));
  const add = async (event: FormEvent) => {
    event.preventDefault();
    const typed = email.trim();
    if (!typed) {
      setError('Enter the email of a user of this deployment.');
      return;
    }
    await run(async () => {
      await source.add(typed);
      notify(`${typed} added`);
      setEmail('');
      changed();
    });
  };
  return (
    <div className="stack">
      <p className="muted page-intro">
        {intro} Administrators see every {what}.
      </p>
      {manage ? (
        <form className="card" onSubmit={add} noValidate>
          <div className="card-body stack tight">
            <FormError>{error}</FormError>
            <div className="row wrap">
              <label htmlFor={inputId} className="field-label">
                Email
              </label>
              <input
                id={inputId}
                className="input member-email"
                type="email"
                list={listId}
                autoComplete="off"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                placeholder={offered.length > 0 ? 'Type a name or email' : 'someone@example.com'}
              />
              <datalist id={listId}>
                {offered.map((user) => (
                  <option key={user.id} value={user.email}>
                    {user.pending ? `${user.name} (invited)` : user.name}
                  </option>
                ))}
              </datalist>
              <Button type="submit" variant="primary" busy={busy}>
                Add member
              </Button>
            </div>
          </div>
        </form>
      ) : (
        <div className="notice">Only an administrator adds or removes members.</div>
      )}
      {members.data && !members.data.some((member) => member.role !== 'admin') ? (
        <p className="muted">No members yet: only administrators see this {what}.</p>
      ) : null}
      <ResourceList
        noun="members"
        source={members}
        onChanged={changed}
        rowKey={(member) => member.id}
        columns={[
          { header: 'Name', className: 'cell-name', cell: (member) => member.name },
          { header: 'Email', className: 'cell-break', cell: (member) => member.email },
          // Who manages sees the role where Remove would be; anyone else in a column of its own.
          ...(manage
            ? []
            : [{ header: 'Role', cell: (member: TenantPerson) => <Badge kind={member.role === 'admin' ? 'accent' : undefined}>{member.role}</Badge> }]),
        ]}
        actions={
          manage
            ? [
                {
                  label: 'Remove',
                  name: (member) => `Remove ${member.email}`,
                  variant: 'danger',
                  shown: (member) => member.role !== 'admin',
                  // An admin is no member to remove: the badge says why (the role is the only one a row shows).
                  instead: () => (
                    <span title={`Administrators see every ${what}`}>
                      <Badge kind="accent">admin</Badge>
                    </span>
                  ),
                  confirm: {
                    title: (member) => `Remove ${member.email}?`,
                    message: () => `They no longer see this ${what} (an administrator still sees every ${what}).${removeNote ? ` ${removeNote}` : ''}`,
                    confirmLabel: 'Remove',
                    run: (member) => source.remove(member.id),
                    done: (member) => `${member.email} removed`,
                  },
                },
              ]
            : []
        }
      />
    </div>
  );
}
