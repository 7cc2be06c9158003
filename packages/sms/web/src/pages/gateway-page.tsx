import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  Button,
  CopyButton,
  ErrorState,
  FormError,
  Loading,
  PageHeader,
  RevealOnceDialog,
  TextField,
  useAction,
  useResource,
  useTitle,
} from '@switchboard/web-kit';
import type { GatewayDriver, GatewayTestResult, GatewayView } from '../api/types.ts';
import { DRIVER_NAMES, GatewayForm } from '../components/gateway-form.tsx';
import { useOrg } from '../org-context.ts';
import { paths } from '../routes.ts';

/** Where each gateway takes the webhook URL, and how it signs what it posts. */
const SIGNING: Record<GatewayDriver, string> = {
  android:
    "In the SMS Gateway for Android app, add a webhook for sms:received, sms:sent, sms:delivered and sms:failed with this URL. With a signing key set here (the same as the app's), each webhook must carry X-Signature = hex HMAC-SHA256(key, body + X-Timestamp), at most 5 minutes off.",
  httpsms:
    'In httpSMS → Settings → Webhooks, add this URL for message.phone.received, message.phone.sent, message.phone.delivered and message.send.failed. With a signing key set here (the one httpSMS shows), its Authorization JWT (HS256) is checked.',
  twilio:
    'In the Twilio console, set this URL for "A message comes in" on your number, and as the status callback. With the auth token set here, X-Twilio-Signature is checked over this exact URL.',
  webhook:
    'Your server posts received messages and delivery reports to this URL as native JSON ({"event": "sms.received", "message": {…}}); the signing key set here signs what this service sends to you.',
  none: 'Any gateway can post received messages and delivery reports to this URL, as native JSON, SMS Gateway for Android, httpSMS or Twilio: the format is recognized from the request.',
};

/** **Test**: one message through the sending driver to a number you give, and the gateway's answer. */
function GatewayTest({ driver }: { driver: GatewayDriver }) {
  const { api } = useOrg();
  const [to, setTo] = useState('');
  const { busy, error, setError, run } = useAction();
  const [result, setResult] = useState<GatewayTestResult | undefined>(undefined);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!to.trim()) return setError('Give a number to send the test message to.');
    await run(async () => {
      setResult(undefined);
      setResult(await api.testGateway(to.trim()));
    });
  };
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <p className="muted">
        Sends one message now through {driver === 'none' ? 'the sending driver (none is set)' : DRIVER_NAMES[driver]}, outside the queue: nothing is stored or
        retried.
      </p>
      <FormError>{error}</FormError>
      <div className="row wrap" style={{ alignItems: 'flex-end' }}>
        <div className="grow">
          <TextField label="Test number" type="tel" placeholder="+15551234567" value={to} onChange={(e) => setTo(e.target.value)} autoComplete="off" />
        </div>
        <Button type="submit" busy={busy}>
          Test
        </Button>
      </div>
      {result ? (
        <div className={`notice ${result.ok ? '' : 'danger'}`} role="status">
          <strong>{result.ok ? `The gateway accepted the message${result.external_id ? ` (its id ${result.external_id})` : ''}.` : 'The test failed.'}</strong>
          {result.answer ? (
            <>
              {' '}
              {result.ok ? 'It answered: ' : ''}
              <code className="gateway-answer">{result.answer}</code>
            </>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

/** The webhook URL to paste into the gateway app, with **Copy**, and a key made for it (shown once, in the URL). */
function WebhookDetails({ view }: { view: GatewayView }) {
  const { orgId, api } = useOrg();
  const [revealed, setRevealed] = useState<string | undefined>(undefined);
  const { busy, error, run } = useAction();
  const url = `${view.webhook_url}?key=YOUR_SECRET_KEY`;
  const createKey = () =>
    run(async () => {
      const created = await api.createKey(`gateway (${view.driver === 'none' ? 'webhook' : view.driver})`);
      setRevealed(`${view.webhook_url}?key=${created.secret_key}`);
    });
  return (
    <div className="stack">
      <div className="field">
        <span className="field-label">Webhook URL</span>
        <div className="secret-row">
          <code className="secret">{url}</code>
          <CopyButton text={url} what="webhook URL" small={false} />
        </div>
      </div>
      <p className="muted">{SIGNING[view.driver]}</p>
      <p className="muted">
        Replace <code className="inline-code">YOUR_SECRET_KEY</code> with one of the organization's <Link to={paths.keys(orgId)}>keys</Link>, or make one for
        this gateway: the URL is then shown once, key included.
      </p>
      <FormError>{error}</FormError>
      <div>
        <Button onClick={() => void createKey()} busy={busy}>
          Create a key for this gateway
        </Button>
      </div>
      {revealed ? (
        <RevealOnceDialog title="Webhook URL with its key" what="webhook URL" value={revealed} wide onClose={() => setRevealed(undefined)}>
          <div className="muted">Paste it into the gateway app. The key is listed under Keys, where it can be revoked.</div>
        </RevealOnceDialog>
      ) : null}
    </div>
  );
}

/**
 * **Gateway**: the driver and its settings (credentials write-only, shown as set or not), **Test** (one
 * message to a number you give, and the gateway's answer), and the webhook URL and signing details to paste
 * into the gateway app, with **Copy**.
 */
export default function GatewayPage() {
  const { api } = useOrg();
  const gateway = useResource((signal) => api.gateway(signal), [api]);
  useTitle('Gateway', 'Switchboard SMS');
  if (gateway.error) return <ErrorState error={gateway.error} onRetry={gateway.reload} title="The gateway could not be read" />;
  if (!gateway.data) return <Loading label="Loading the gateway…" />;
  const view = gateway.data;
  return (
    <>
      <PageHeader title="Gateway" />
      <p className="muted page-intro">
        {view.driver === 'none'
          ? "No gateway sends this organization's messages yet: they wait in the queue until one is saved here."
          : `${DRIVER_NAMES[view.driver]} sends this organization's messages.`}
      </p>
      <div className="gateway-grid">
        <section className="card" aria-labelledby="driver-heading">
          <div className="card-header">
            <h2 id="driver-heading">Driver</h2>
          </div>
          <div className="card-body">
            <GatewayForm view={view} onSaved={(saved) => gateway.setData(saved)} />
          </div>
        </section>
        {/* The page's cards: each a card with its heading and body, alike but for what it holds. */}
        <div className="stack">
          <section className="card" aria-labelledby="test-heading">
            <div className="card-header">
              <h2 id="test-heading">Test</h2>
            </div>
            <div className="card-body">
              <GatewayTest driver={view.driver} />
            </div>
          </section>
          <section className="card" aria-labelledby="webhook-heading">
            <div className="card-header">
              <h2 id="webhook-heading">Receiving</h2>
            </div>
            <div className="card-body">
              <WebhookDetails view={view} />
            </div>
          </section>
        </div>
      </div>
    </>
  );
}
