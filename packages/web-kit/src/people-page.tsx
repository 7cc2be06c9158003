import { useState } from 'react';
import { ConfirmDialog } from './dialog.tsx';
import { dateTime } from './format.ts';
import { useResource, useTitle } from './hooks.ts';
import { peopleApi, personStatus, type Invitation, type Person } from './people-api.ts';
import { form } from './record-form.tsx';
import { ResourceList } from './resource-list.tsx';
import type { RowAction } from './resource-table.tsx';
import { RevealOnceDialog } from './reveal-once.tsx';
import { useSession } from './session.tsx';
import { Badge, NotFoundState, PageHeader } from './states.tsx';
import { useToast } from './toast.tsx';

const STATUS_KIND = { Active: 'success', Invited: 'warning', Disabled: 'danger' } as const;

/** What to do with a link, under it in the dialog that shows it once. */
function LinkHelp({ email, invitation }: { email: string; invitation: Invitation }) {
  return (
    <p className="muted">
      Send it to {email}. It works once, until {dateTime(invitation.expires_at)}: it asks for a password and signs them in. Lost it? Make a new one with{' '}
      <strong>New invitation link</strong>.
    </p>
  );
}

const inviteForm = form({
  submitLabel: 'Invite',
  initial: { email: '', name: '', admin: false },
  fields: () => [
    { name: 'email', label: 'Email', type: 'email', required: true, autoFocus: true, autoComplete: 'off' },
    { name: 'name', label: 'Name', required: true },
    { name: 'admin', label: 'Admin (sees and manages everything, and the people)', kind: 'checkbox' },
  ],
  check: (values) => (!values.email.trim() ? 'Give their email.' : !values.name.trim() ? 'Give their name.' : undefined),
  submit: (values) => peopleApi.invite({ email: values.email.trim(), name: values.name.trim(), admin: values.admin }),
  done: (answer) => `${answer.user.email} invited`,
});

/**
 * **New invitation link** for one person: asks first (their earlier links stop working), then shows the
 * new link once.
 */
function NewLinkDialog({ person, onClose }: { person: Person; onClose: () => void }) {
  const [link, setLink] = useState<Invitation | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const notify = useToast();
  if (link) {
    return (
      <RevealOnceDialog title={`New invitation link for ${person.name}`} what="link" value={link.url} onClose={onClose}>
        <LinkHelp email={person.email} invitation={link} />
      </RevealOnceDialog>
    );
  }
  const make = async () => {
    setBusy(true);
    try {
      setLink(await peopleApi.newInvitation(person.id));
    } catch (reason) {
      notify((reason as Error).message, 'error');
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      title={`New invitation link for ${person.name}?`}
      message={
        person.pending
          ? `Their earlier link stops working. The new one lets ${person.email} set a password and sign in.`
          : `Use it as a password reset: ${person.email} sets a new password with it, and their other sessions end. Earlier links stop working.`
      }
      confirmLabel="Make link"
      danger={false}
      busy={busy}
      onConfirm={() => void make()}
      onCancel={onClose}
    />
  );
}

/**
 * **People** (admins): everyone who can sign in, with their role and status; **Invite person** (a link shown
 * once), **Make admin** / **Remove admin**, **Disable** / **Enable** (confirmed) and **New invitation link**.
 * Anyone else sees "Page not found", as the API answers them.
 */
export default function PeoplePage() {
  const { session } = useSession();
  useTitle('People', 'Switchboard');
  const me = session.user;
  const people = useResource((signal) => peopleApi.list(signal), []);
  if (me.role !== 'admin') return <NotFoundState what="Page" />;
  const notMe = (person: Person) => person.id !== me.id;
  const actions: Array<RowAction<Person>> = [
    {
      label: 'Make admin',
      name: (p) => `Make ${p.name} an admin`,
      shown: (p) => p.role === 'member',
      confirm: {
        title: (p) => `Make ${p.name} an admin?`,
        message: (p) => `${p.email} will see and manage every organization and project, and the people.`,
        confirmLabel: 'Make admin',
        run: (p) => peopleApi.change(p.id, { admin: true }),
        done: (p) => `${p.email} is an admin`,
      },
    },
    {
      label: 'Remove admin',
      name: (p) => `Remove admin from ${p.name}`,
      shown: (p) => p.role === 'admin' && notMe(p),
      confirm: {
        title: (p) => `Remove admin from ${p.name}?`,
        message: (p) => `${p.email} will see only the organizations and projects they are a member of.`,
        confirmLabel: 'Remove admin',
        run: (p) => peopleApi.change(p.id, { admin: false }),
        done: (p) => `${p.email} is a member`,
      },
    },
    {
      label: 'New invitation link',
      name: (p) => `New invitation link for ${p.name}`,
      shown: (p) => !p.disabled && notMe(p),
      dialog: (p, close) => <NewLinkDialog person={p} onClose={close} />,
    },
    {
      label: 'Disable',
      name: (p) => `Disable ${p.name}`,
      variant: 'danger',
      shown: (p) => !p.disabled && notMe(p),
      confirm: {
        title: (p) => `Disable ${p.name}?`,
        message: (p) => `${p.email} is signed out everywhere at once, and their MCP clients' access ends. You can enable them again.`,
        confirmLabel: 'Disable',
        run: (p) => peopleApi.change(p.id, { disabled: true }),
        done: (p) => `${p.email} disabled`,
      },
    },
    {
      label: 'Enable',
      name: (p) => `Enable ${p.name}`,
      shown: (p) => p.disabled,
      confirm: {
        title: (p) => `Enable ${p.name}?`,
        message: (p) => (p.pending ? `${p.email} can then be sent a new invitation link.` : `${p.email} can sign in again with their password.`),
        confirmLabel: 'Enable',
        run: (p) => peopleApi.change(p.id, { disabled: false }),
        done: (p) => `${p.email} enabled`,
      },
    },
  ];
  return (
    <ResourceList
      noun="people"
      source={{ data: people.data, error: people.error, reload: people.reload }}
      header={(create) => <PageHeader title="People">{create}</PageHeader>}
      search={{ label: 'Search people', placeholder: 'Search by name or email', text: (p) => `${p.name} ${p.email}` }}
      rowKey={(p) => p.id}
      rowClassName={(p) => (p.disabled ? 'dimmed' : undefined)}
      caption="People who can sign in"
      columns={[
        {
          header: 'Name',
          className: 'cell-name people-name',
          sort: (p) => p.name.toLowerCase(),
          cell: (p) => (
            <>
              {p.name}
              {notMe(p) ? null : <span className="faint"> (you)</span>}
            </>
          ),
        },
        { header: 'Email', className: 'cell-break', sort: (p) => p.email, cell: (p) => p.email },
        { header: 'Role', cell: (p) => (p.role === 'admin' ? <Badge kind="accent">Admin</Badge> : 'Member') },
        {
          header: 'Status',
          cell: (p) => {
            const status = personStatus(p);
            return <Badge kind={STATUS_KIND[status]}>{status}</Badge>;
          },
        },
        { header: 'Added', time: (p) => p.created_at },
      ]}
      actions={actions}
      create={{
        label: 'Invite person',
        form: inviteForm,
        reveal: (answer) => ({
          title: `Invitation link for ${answer.user.name}`,
          what: 'link',
          value: answer.invitation.url,
          children: <LinkHelp email={answer.user.email} invitation={answer.invitation} />,
        }),
      }}
    />
  );
}
