import { useState, type FormEvent } from 'react';
import { Badge, Button, FormError, ResourceList, useAction, useResource, useSession, useToast } from '@switchboard/web-kit';
import { useProject } from '../project-context.tsx';

/** **Members**: who may see this project; an admin adds users by email and removes them. */
export function MembersTab() {
  const project = useProject();
  const { session } = useSession();
  const notify = useToast();
  const members = useResource((signal) => project.api.members(signal).then((answer) => answer.members), [project.key]);
  const [email, setEmail] = useState('');
  const { busy, error, setError, run } = useAction();
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
    await run(async () => {
      await project.api.addMember(email.trim());
      notify(`${email.trim()} added`);
      setEmail('');
      changed();
    });
  };
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
              <input
                id="member-email"
                className="input"
                style={{ maxWidth: 320 }}
                type="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                placeholder="someone@example.com"
              />
              <Button type="submit" variant="primary" busy={busy}>
                Add member
              </Button>
            </div>
          </div>
        </form>
      ) : (
        <div className="notice">Only an administrator adds or removes members.</div>
      )}
      <ResourceList
        noun="members"
        source={members}
        onChanged={changed}
        rowKey={(member) => member.id}
        columns={[
          { header: 'Name', className: 'cell-name', cell: (member) => member.name },
          { header: 'Email', cell: (member) => member.email },
          { header: 'Role', cell: (member) => (member.role === 'admin' ? <Badge kind="accent">admin</Badge> : <Badge>{member.role || 'member'}</Badge>) },
        ]}
        actions={
          admin
            ? [
                {
                  label: 'Remove',
                  name: (member) => `Remove ${member.email}`,
                  variant: 'danger',
                  shown: (member) => member.role !== 'admin',
                  instead: () => (
                    <span className="faint" title="Administrators see every project">
                      Sees every project
                    </span>
                  ),
                  confirm: {
                    title: (member) => `Remove ${member.email}?`,
                    message: () => 'They no longer see this project (an administrator still sees every project). Tickets assigned to them keep their assignee.',
                    confirmLabel: 'Remove',
                    run: (member) => project.api.removeMember(member.id),
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
