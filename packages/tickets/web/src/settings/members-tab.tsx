import { useState, type FormEvent } from 'react';
import { Badge, Button, ConfirmDialog, ErrorState, FormError, Loading, useResource, useSession, useToast } from '@switchboard/web-kit';
import type { Member } from '../api/types.ts';
import { useProject } from '../project-context.tsx';

/** **Members**: who may see this project; an admin adds users by email and removes them. */
export function MembersTab() {
  const project = useProject();
  const { session } = useSession();
  const notify = useToast();
  const members = useResource((signal) => project.api.members(signal), [project.key]);
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<Member | undefined>(undefined);
  const admin = session.user.role === 'admin';
  const changed = () => {
    members.reload();
    project.reloadMeta();
  };
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setError('Enter the email of a user of this deployment.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      await project.api.addMember(email.trim());
      notify(`${email.trim()} added`);
      setEmail('');
      changed();
    } catch (reason) {
      setError((reason as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const list = members.data?.members;
  return (
    <div className="stack">
      <p className="muted page-intro">
        Members see this project's board, documents and settings, and can be assigned tickets. Administrators see every project. New users are created with{' '}
        <code className="inline-code">npx switchboard user create EMAIL</code>.
      </p>
      {admin ? (
        <form className="card" onSubmit={add} noValidate>
          <div className="card-body stack tight">
            <FormError>{error}</FormError>
            <div className="row">
              <label htmlFor="member-email" className="field-label">
                Email
              </label>
              <input id="member-email" className="input" style={{ maxWidth: 320 }} type="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="someone@example.com" />
              <Button type="submit" variant="primary" busy={busy}>
                Add member
              </Button>
            </div>
          </div>
        </form>
      ) : (
        <div className="notice">Only an administrator adds or removes members.</div>
      )}
      {members.error ? (
        <ErrorState error={members.error} onRetry={members.reload} />
      ) : !list ? (
        <Loading />
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Email</th>
                <th>Role</th>
                {admin ? (
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {list.map((member) => (
                <tr key={member.id}>
                  <td className="cell-name">{member.name}</td>
                  <td>{member.email}</td>
                  <td>{member.role === 'admin' ? <Badge kind="accent">admin</Badge> : <Badge>{member.role || 'member'}</Badge>}</td>
                  {admin ? (
                    <td className="actions-cell">
                      {member.role === 'admin' ? (
                        <span className="faint" title="Administrators see every project">
                          Sees every project
                        </span>
                      ) : (
                        <Button small variant="danger" aria-label={`Remove ${member.email}`} onClick={() => setRemoving(member)}>
                          Remove
                        </Button>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {removing ? (
        <ConfirmDialog
          title={`Remove ${removing.email}?`}
          message="They no longer see this project (an administrator still sees every project). Tickets assigned to them keep their assignee."
          confirmLabel="Remove"
          onCancel={() => setRemoving(undefined)}
          onConfirm={async () => {
            const member = removing;
            setRemoving(undefined);
            try {
              await project.api.removeMember(member.id);
              notify(`${member.email} removed`);
              changed();
            } catch (reason) {
              notify((reason as Error).message, 'error');
            }
          }}
        />
      ) : null}
    </div>
  );
}
