import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeader, useResource, useTitle } from '@switchboard/web-kit';
import { Composer, type Sent } from '../components/composer.tsx';
import { MessageStatus } from '../components/message-status.tsx';
import { useOrg } from '../org-context.ts';
import { paths } from '../routes.ts';

/**
 * **Send**: **To**, **SIM** and **Text** with its segment counter, and **Send**. The message is queued and
 * sent by the organization's gateway; without one it waits, and the page says so with a link to **Gateway**.
 */
export default function SendPage() {
  const { orgId, api } = useOrg();
  const [params] = useSearchParams();
  const sims = useResource((signal) => api.sims(signal), [api]);
  const [sent, setSent] = useState<Sent[]>([]);
  useTitle('Send', 'Switchboard SMS');
  return (
    <>
      <PageHeader title="Send a message" />
      <p className="muted page-intro">
        The message is queued and sent through the organization's gateway, with retries; its delivery state shows in its conversation in the{' '}
        <Link to={paths.inbox(orgId)}>Inbox</Link>.
      </p>
      <div className="card">
        <div className="card-body">
          <Composer sims={sims.data ?? []} initialTo={params.get('to') ?? ''} onSent={(message) => setSent((list) => [message, ...list].slice(0, 5))} />
        </div>
      </div>
      {sent.length > 0 ? (
        <div className="section">
          <h2>Sent from this page</h2>
          <ul className="plain-list sent-list" aria-label="Sent from this page">
            {sent.map((message) => (
              <li key={message.id}>
                <Link to={paths.conversation(orgId, message.to)}>{message.to}</Link> <span className="muted truncate">{message.body}</span>{' '}
                <MessageStatus message={message} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}
