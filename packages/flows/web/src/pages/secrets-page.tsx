import { useMemo } from 'react';
import { PageHeader, ResourceList, form, useResource, useTitle } from '@switchboard/web-kit';
import { SECRET_NAME_PATTERN } from '../../../src/domain/secret-references.ts';
import { useOrg } from '../api/use-org.ts';
import { hubApi } from '../api/hub-api.ts';
import type { SecretInfo } from '../api/types.ts';
import { HubNav } from '../components/hub-nav.tsx';
import '../components/dashboard.css';

type Hub = ReturnType<typeof hubApi>;

/** How a flow names a secret. */
const reference = (name: string) => `{{secrets.${name}}}`;

/**
 * **LLM Hub → Secrets**: the organization's secrets by name (never a value,
 * not even here), **Set secret**, **Replace** and **Delete** (confirmed).
 */
export default function SecretsPage() {
  const { org } = useOrg();
  useTitle('Secrets', 'Switchboard Flows');
  const hub = useMemo(() => hubApi(`/api/llm/${encodeURIComponent(org)}`), [org]);
  const secrets = useResource((signal) => hub.secrets(signal).then((answer) => answer.secrets), [org]);
  const taken = new Set(secrets.data?.map((secret) => secret.name));
  return (
    <ResourceList
      noun="secrets"
      source={secrets}
      header={(create) => (
        <>
          <HubNav />
          <PageHeader title="Secrets">{create}</PageHeader>
          <p className="muted page-intro">
            Values that tools send to their own servers: an API key, a Bearer token. A flow names one as{' '}
            <code className="inline-code">{reference('NAME')}</code> in an HTTP tool's URL, headers or body, or an MCP tool's headers, and nowhere else, so it
            never reaches a model or a reply. Values are stored encrypted and never shown again, here or anywhere.
          </p>
        </>
      )}
      rowKey={(secret) => secret.name}
      columns={[
        { header: 'Name', className: 'cell-name mono', cell: (secret) => secret.name },
        { header: 'Reference', className: 'mono', cell: (secret) => reference(secret.name) },
        { header: 'Updated', time: (secret) => secret.updated_at },
        { header: 'Last used', time: (secret) => secret.last_used_at },
      ]}
      actions={[
        { label: 'Replace', name: (secret) => `Replace ${secret.name}`, form: (secret) => secretForm(hub, secret, taken) },
        {
          label: 'Delete',
          name: (secret) => `Delete ${secret.name}`,
          variant: 'danger',
          confirm: {
            title: (secret) => `Delete secret "${secret.name}"?`,
            message: (secret) =>
              `Tool calls of flows that reference ${reference(secret.name)} fail from then on (the model is told why), until a secret of that name is set again.`,
            confirmLabel: 'Delete',
            run: (secret) => hub.deleteSecret(secret.name),
            done: (secret) => `Secret "${secret.name}" deleted`,
          },
        },
      ]}
      create={{ label: 'Set secret', form: secretForm(hub, undefined, taken) }}
      empty={{
        title: 'No secrets yet',
        offerCreate: true,
        children: (
          <>
            Move the tokens your tools send out of your flows: set one here, then write <code className="inline-code">{reference('NAME')}</code> where the token
            was.
          </>
        ),
      }}
    />
  );
}

/**
 * **Set secret** (a **Name** and a **Value**) or **Replace** one (a new
 * **Value**). The value lives in the dialog's state only: closing it forgets it.
 */
function secretForm(hub: Hub, secret: SecretInfo | undefined, taken: ReadonlySet<string>) {
  return form({
    title: secret ? `Replace secret "${secret.name}"` : 'Set secret',
    submitLabel: 'Save',
    initial: { name: secret?.name ?? '', value: '' },
    fields: (values) => [
      secret
        ? null
        : {
            name: 'name',
            label: 'Name',
            placeholder: 'GITHUB_TOKEN',
            maxLength: 64,
            autoComplete: 'off',
            hint: `Letters, digits and "_". Flows write ${reference(values.name.trim() || 'NAME')}.`,
            required: true,
          },
      {
        name: 'value',
        label: 'Value',
        type: 'password',
        autoComplete: 'new-password',
        hint: secret
          ? 'The new value replaces the stored one (never shown); flows use it from their next tool call.'
          : 'Stored encrypted; never shown again. For a value of several lines, use switchboard flows secret set.',
        required: true,
      },
    ],
    check: (values) => {
      const name = values.name.trim();
      if (!SECRET_NAME_PATTERN.test(name)) return 'Give the secret a name of letters, digits and "_", not starting with a digit (e.g. GITHUB_TOKEN).';
      if (!secret && taken.has(name)) return `A secret named "${name}" exists: use its Replace button to change its value.`;
      if (values.value === '') return 'Enter the value.';
      return undefined;
    },
    submit: (values) => hub.setSecret(values.name.trim(), values.value),
    done: (_saved, values) => `Secret "${values.name.trim()}" saved`,
  });
}
