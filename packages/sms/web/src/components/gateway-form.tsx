import { useState, type FormEvent } from 'react';
import { Button, CheckboxField, FormError, SelectField, TextField, useAction, useToast } from '@switchboard/web-kit';
import { DRIVER_FIELDS, GATEWAY_DRIVERS, SECRET_FIELDS, type GatewayDriver, type GatewayField, type SecretField } from '../../../src/domain/gateway-fields.ts';
import type { GatewayView } from '../api/types.ts';
import { useOrg } from '../org-context.ts';

/** The drivers as the **Driver** select names them. */
export const DRIVER_NAMES: Record<GatewayDriver, string> = {
  android: 'SMS Gateway for Android',
  httpsms: 'httpSMS',
  twilio: 'Twilio',
  webhook: 'Webhook (your own server)',
  none: 'None: messages wait in the queue',
};

const isSecret = (name: GatewayField): name is SecretField => (SECRET_FIELDS as readonly string[]).includes(name);

/** The values of a driver's form: its stored plain settings, and empty credentials (they are never sent back). */
function initialValues(view: GatewayView, driver: GatewayDriver): Record<string, string> {
  const stored = view.drivers.find((d) => d.driver === driver);
  const values: Record<string, string> = {};
  for (const field of DRIVER_FIELDS[driver])
    values[field.name] = isSecret(field.name) ? '' : ((stored?.settings as Record<string, string | null> | undefined)?.[field.name] ?? '');
  return values;
}

/**
 * The driver and its settings: a **Driver** select and the chosen driver's fields. Credentials are
 * write-only: a stored one shows as set, an empty field keeps it, **Remove** clears it. **Save** makes the
 * driver the one that sends.
 */
export function GatewayForm({ view, onSaved }: { view: GatewayView; onSaved: (view: GatewayView) => void }) {
  const { api } = useOrg();
  const notify = useToast();
  const [driver, setDriver] = useState<GatewayDriver>(view.driver);
  const [values, setValues] = useState<Record<string, string>>(() => initialValues(view, view.driver));
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  const { busy, error, setError, run } = useAction();
  const stored = view.drivers.find((d) => d.driver === driver);

  const choose = (next: GatewayDriver) => {
    setDriver(next);
    setValues(initialValues(view, next));
    setRemoved(new Set());
    setError('');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = DRIVER_FIELDS[driver].filter(
      (field) => field.required && !values[field.name] && !(isSecret(field.name) && stored?.secrets[field.name] && !removed.has(field.name)),
    );
    if (missing.length > 0) return setError(`${DRIVER_NAMES[driver]} needs ${missing.map((field) => field.label).join(', ')}.`);
    const settings: Partial<Record<GatewayField, string | null>> = {};
    for (const field of DRIVER_FIELDS[driver]) {
      if (isSecret(field.name)) settings[field.name] = removed.has(field.name) ? null : values[field.name] || undefined;
      else settings[field.name] = values[field.name] || null;
    }
    await run(async () => {
      const saved = await api.setGateway(driver, settings);
      notify(
        driver === 'none' ? 'Gateway turned off: messages wait in the queue' : `Gateway saved: ${DRIVER_NAMES[driver]} sends this organization's messages`,
      );
      setValues(initialValues(saved, driver));
      setRemoved(new Set());
      onSaved(saved);
    });
  };

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <FormError>{error}</FormError>
      <SelectField
        label="Driver"
        value={driver}
        onChange={(e) => choose(e.target.value as GatewayDriver)}
        options={GATEWAY_DRIVERS.map((name) => ({ value: name, label: DRIVER_NAMES[name] }))}
      />
      {DRIVER_FIELDS[driver].map((field) => {
        const secret = isSecret(field.name);
        const set = secret && stored?.secrets[field.name as SecretField] === true;
        return (
          <div key={field.name} className="stack tight">
            <TextField
              label={field.label}
              type={secret ? 'password' : field.name === 'url' ? 'url' : 'text'}
              autoComplete={secret ? 'new-password' : 'off'}
              required={field.required}
              value={values[field.name] ?? ''}
              disabled={removed.has(field.name)}
              placeholder={set ? 'Set: leave empty to keep it' : secret ? 'Not set' : ''}
              hint={`${set ? 'Set (never shown). ' : secret ? 'Not set. ' : ''}${field.hint}`}
              onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
            />
            {set && !field.required ? (
              <CheckboxField
                label={`Remove the ${field.label.toLowerCase()}`}
                checked={removed.has(field.name)}
                onChange={(e) => {
                  const next = new Set(removed);
                  if (e.target.checked) next.add(field.name);
                  else next.delete(field.name);
                  setRemoved(next);
                }}
              />
            ) : null}
          </div>
        );
      })}
      <div className="row end">
        <Button type="submit" variant="primary" busy={busy}>
          Save
        </Button>
      </div>
    </form>
  );
}
