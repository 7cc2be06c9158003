import { useMemo } from 'react';
import {
  Badge,
  OAuthGrantsList,
  PageHeader,
  ResourceList,
  credentialColumns,
  dimRevoked,
  form,
  revokeAction,
  useResource,
  useTitle,
} from '@switchboard/web-kit';
import { Link } from 'react-router-dom';
import { useOrg } from '../api/use-org.ts';
import { hubApi } from '../api/hub-api.ts';
import { HubNav } from '../components/hub-nav.tsx';
import '../components/dashboard.css';

const SCOPES = [
  { value: 'run', label: 'run: call flows' },
  { value: 'manage', label: 'manage: also change flows, tokens, providers, knowledge; read runs' },
];

/** **LLM Hub → Tokens**: the organization's tokens, **Create token** (shown once) and **Revoke**, and the MCP clients people signed in with (OAuth grants). */
export default function TokensPage() {
  const { org, base } = useOrg();
  useTitle('Tokens', 'Switchboard Flows');
  const hub = useMemo(() => hubApi(`/api/llm/${encodeURIComponent(org)}`), [org]);
  const tokens = useResource((signal) => hub.tokens(signal).then((answer) => answer.tokens), [org]);
  const grants = useResource((signal) => hub.grants(signal).then((answer) => answer.grants), [org]);
  return (
    <div className="stack">
      <ResourceList
        noun="tokens"
        source={tokens}
        header={(create) => (
          <>
            <HubNav />
            <PageHeader title="Tokens">{create}</PageHeader>
            <p className="muted page-intro">
              Tokens call this organization's flows (<strong>run</strong>) or also manage its flows, tokens, providers, knowledge and runs (
              <strong>manage</strong>). Send one as <code className="inline-code">Authorization: Bearer …</code>; the{' '}
              <Link to={`${base}/flows`}>API page of each flow</Link> has ready-made snippets.
            </p>
          </>
        )}
        rowKey={(token) => token.id}
        rowClassName={dimRevoked}
        columns={[
          { header: 'Name', className: 'cell-name', cell: (token) => token.name },
          { header: 'Scope', cell: (token) => <Badge kind={token.scope === 'manage' ? 'warning' : undefined}>{token.scope}</Badge> },
          { header: 'Token', className: 'mono faint', title: () => 'The start of the token: the rest is never shown again', cell: (token) => token.hint },
          ...credentialColumns,
        ]}
        actions={[
          revokeAction(
            'token',
            'Every request that sends this token is refused from now on. This cannot be undone: applications using it need a new token.',
            (token) => hub.revokeToken(token.id),
          ),
        ]}
        create={{
          label: 'Create token',
          form: form({
            initial: { name: '', scope: 'run' },
            fields: () => [
              { name: 'name', label: 'Name', placeholder: 'website', maxLength: 100, required: true },
              {
                name: 'scope',
                label: 'Scope',
                kind: 'select',
                options: SCOPES,
                hint: 'Give applications run tokens; manage tokens are for automation that changes the organization.',
              },
            ],
            check: (values) => (values.name.trim() ? undefined : 'Give the token a name, for example the application that will use it.'),
            submit: (values) => hub.createToken({ name: values.name.trim(), scope: values.scope === 'manage' ? 'manage' : 'run' }),
          }),
          reveal: (token) => ({
            title: `Token "${token.name}" created`,
            what: 'token',
            value: token.token,
            children: (
              <div className="muted">
                Scope <strong>{token.scope}</strong>. Send it as <code className="inline-code">Authorization: Bearer {'<token>'}</code>.
              </div>
            ),
          }),
        }}
        empty={{
          title: 'No tokens yet',
          offerCreate: true,
          children: (
            <>
              Create a <strong>run</strong> token for each application that calls your flows, so you can revoke one without the others.
            </>
          ),
        }}
      />
      <OAuthGrantsList source={grants} revoke={(grant) => hub.revokeGrant(grant.id)} where={`organization ${org}`} />
    </div>
  );
}
