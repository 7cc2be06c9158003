import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button, FormError, SelectField, TextAreaField, TextField, useAction, useToast } from '@switchboard/web-kit';
import type { SentMessage, SimRecord } from '../api/types.ts';
import { useOrg } from '../org-context.ts';
import { paths } from '../routes.ts';
import { SegmentCounter } from './segment-counter.tsx';

/** What a sent message's answer tells the page: the message, and whether it waits for a gateway. */
export type Sent = SentMessage;

/**
 * A message to send: **To** (unless replying in a conversation), **SIM**, **Text** with its segment counter,
 * and **Send**. A message queued while the organization has no gateway says so, with a link to **Gateway**.
 */
export function Composer({
  to: fixedTo,
  sims,
  initialTo = '',
  compact,
  onSent,
}: {
  to?: string;
  sims: SimRecord[];
  initialTo?: string;
  compact?: boolean;
  onSent?: (sent: Sent) => void;
}) {
  const { orgId, api } = useOrg();
  const notify = useToast();
  const [to, setTo] = useState(initialTo);
  const [sim, setSim] = useState('');
  const [text, setText] = useState('');
  const { busy, error, setError, run } = useAction();
  const [waiting, setWaiting] = useState<Sent | undefined>(undefined);
  const counterId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const recipient = fixedTo ?? to.trim();
    if (!recipient) return setError('Give the number to send to, such as +15551234567.');
    if (!text) return setError('Write the message first.');
    await run(async () => {
      const sent = await api.send({ to: recipient, body: text, ...(sim ? { sim } : {}) });
      setText('');
      setWaiting(sent.warning ? sent : undefined);
      if (!sent.warning) notify(`Message queued to ${sent.to}`);
      onSent?.(sent);
    });
  };

  const simSelect = (
    <SelectField
      label="SIM"
      value={sim}
      onChange={(e) => setSim(e.target.value)}
      options={[
        { value: '', label: 'Any (the gateway chooses)' },
        ...sims.map((s) => ({ value: s.sim, label: s.label ? `${s.label} (${s.sim})` : s.phone_number ? `${s.sim} (${s.phone_number})` : s.sim })),
      ]}
    />
  );

  return (
    <form className={compact ? 'composer compact' : 'composer stack'} onSubmit={submit} noValidate>
      <FormError>{error}</FormError>
      {waiting ? (
        <div className="notice warning" role="status">
          Message {waiting.id} to {waiting.to} is queued, but this organization has no gateway yet: it stays queued until one is set in{' '}
          <Link to={paths.gateway(orgId)}>Gateway</Link>.
        </div>
      ) : null}
      {compact ? null : (
        <div className="grid-2">
          {fixedTo === undefined ? (
            <TextField label="To" type="tel" value={to} onChange={(e) => setTo(e.target.value)} placeholder="+15551234567" autoComplete="off" required />
          ) : null}
          {simSelect}
        </div>
      )}
      <TextAreaField
        label="Text"
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={compact ? 2 : 5}
        maxLength={1600}
        aria-describedby={counterId}
        required
      />
      <div className="row between wrap composer-actions">
        {compact ? simSelect : null}
        <SegmentCounter text={text} id={counterId} />
        <Button type="submit" variant="primary" busy={busy}>
          Send
        </Button>
      </div>
    </form>
  );
}
