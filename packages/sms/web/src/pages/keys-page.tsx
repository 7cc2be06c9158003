import { Link } from 'react-router-dom';
import { PageHeader, ResourceList, credentialColumns, dimRevoked, form, revokeAction, useResource, useTitle } from '@switchboard/web-kit';
import type { ConsoleKey } from '../api/types.ts';
import { useOrg } from '../org-context.ts';
import { paths } from '../routes.ts';

/** **Keys**: the organization's secret keys (name, start of the key, created, last used, status), **Create key** (shown once) and **Revoke** (confirmed). */
export default function KeysPage() {
  const { orgId, api } = useOrg();
  const keys = useResource((signal) => api.keys(signal), [api]);
  useTitle('Keys', 'Switchboard SMS');
  return (
    <ResourceList<ConsoleKey, { key_id: number; name: string; secret_key: string }>
      noun="keys"
      source={keys}
      header={(create) => (
        <>
          <PageHeader title="Keys">{create}</PageHeader>
          <p className="muted page-intro">
            A secret key reads and sends this organization's messages over the API (<code className="inline-code">Authorization: Bearer sms_…</code> or{' '}
            <code className="inline-code">X-Secret-Key</code>), and lets a gateway post to the webhook (<Link to={paths.gateway(orgId)}>Gateway</Link>). Give
            each application or phone its own, so one can be revoked alone.
          </p>
        </>
      )}
      rowKey={(key) => key.id}
      rowClassName={dimRevoked}
      columns={[
        { header: 'Name', className: 'cell-name', cell: (key) => key.name },
        { header: 'Key', className: 'mono faint', title: () => 'The start of the key: the rest is never shown again', cell: (key) => key.hint },
        ...credentialColumns,
      ]}
      actions={[
        revokeAction(
          'key',
          'Every request and webhook that sends this key is refused from now on, on every instance. This cannot be undone: whatever uses it needs a new key.',
          (key) => api.revokeKey(Number(key.id)),
        ),
      ]}
      create={{
        label: 'Create key',
        form: form({
          initial: { name: '' },
          fields: () => [
            {
              name: 'name',
              label: 'Name',
              placeholder: 'Android phone',
              maxLength: 100,
              required: true,
              hint: 'What will use it: an application, a phone, a script.',
            },
          ],
          check: (values) => (values.name.trim() ? undefined : 'Give the key a name, for example what will use it.'),
          submit: (values) => api.createKey(values.name.trim()),
        }),
        reveal: (created) => ({
          title: `Key "${created.name}" created`,
          what: 'key',
          value: created.secret_key,
          children: (
            <div className="muted">
              Send it as <code className="inline-code">Authorization: Bearer {'<key>'}</code>, or give a gateway the webhook URL with{' '}
              <code className="inline-code">?key=</code> (see Gateway).
            </div>
          ),
        }),
      }}
      empty={{ title: 'No keys', offerCreate: true, children: 'Create a key for each application or phone that uses this organization.' }}
    />
  );
}
