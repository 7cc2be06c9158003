// A gateway driver's settings as the console and its API show and take them: the plain ones read back, the
// credentials write-only (said as set or not). Pure and free of dependencies, shared by the service and its UI.

/** Settings shown as they are. */
export const PLAIN_FIELDS = ['url', 'username', 'account_sid', 'from'] as const;
/** Credentials: stored sealed, never answered, only said to be set. */
export const SECRET_FIELDS = ['password', 'api_key', 'auth_token', 'signing_key'] as const;

/** A plain setting. */
export type PlainField = (typeof PLAIN_FIELDS)[number];
/** A credential. */
export type SecretField = (typeof SECRET_FIELDS)[number];
/** Any setting of a driver. */
export type GatewayField = PlainField | SecretField;

/** The drivers a console sets, `none` included. */
export const GATEWAY_DRIVERS = ['android', 'httpsms', 'twilio', 'webhook', 'none'] as const;
/** One driver. */
export type GatewayDriver = (typeof GATEWAY_DRIVERS)[number];

/** One field of a driver's form: its name, whether the driver cannot send without it, and what it is. */
export interface DriverField {
  name: GatewayField;
  required: boolean;
  label: string;
  hint: string;
}

/** The fields each driver takes (the CLI's `gateway set` options), in the order a form shows them. */
export const DRIVER_FIELDS: Record<GatewayDriver, DriverField[]> = {
  android: [
    {
      name: 'url',
      required: true,
      label: 'API URL',
      hint: "The app's local server (http://PHONE-IP:8080) or its cloud server (https://api.sms-gate.app/3rdparty/v1).",
    },
    { name: 'username', required: true, label: 'Username', hint: "The app's basic-auth user." },
    { name: 'password', required: true, label: 'Password', hint: "The app's basic-auth password." },
    { name: 'signing_key', required: false, label: 'Signing key', hint: "The app's webhook signing key: X-Signature is checked on every Android webhook." },
  ],
  httpsms: [
    { name: 'api_key', required: true, label: 'API key', hint: 'From the httpSMS settings page.' },
    { name: 'from', required: false, label: 'From', hint: "The phone's number in the httpSMS app (else the SIM's number)." },
    { name: 'signing_key', required: false, label: 'Signing key', hint: "httpSMS's webhook signing key: its JWT is checked on every httpSMS webhook." },
    { name: 'url', required: false, label: 'API URL', hint: 'Leave empty for https://api.httpsms.com.' },
  ],
  twilio: [
    { name: 'account_sid', required: true, label: 'Account SID', hint: 'AC… from the Twilio console.' },
    { name: 'auth_token', required: true, label: 'Auth token', hint: 'Also checks X-Twilio-Signature on every Twilio webhook.' },
    { name: 'from', required: true, label: 'From', hint: 'A Twilio phone number (+E.164).' },
    { name: 'url', required: false, label: 'API URL', hint: 'Leave empty for https://api.twilio.com.' },
  ],
  webhook: [
    { name: 'url', required: true, label: 'URL', hint: 'Each message is POSTed to it as JSON.' },
    {
      name: 'signing_key',
      required: false,
      label: 'Signing key',
      hint: 'Signs what is sent: X-Timestamp and X-Signature (hex HMAC-SHA256 of body + timestamp).',
    },
  ],
  none: [],
};

/** Stored settings of one driver (the sealed JSON). */
export type StoredSettings = Partial<Record<GatewayField, string>>;

/** A driver's settings as GET …/gateway answers them: plain values, and for each credential whether it is set (never its value). */
export interface DriverSettings {
  driver: GatewayDriver;
  settings: Record<PlainField, string | null>;
  secrets: Record<SecretField, boolean>;
  updated_at: string | null;
}

/** The fields of a driver's settings that go over the wire: never a credential, only whether it is set. */
export function presentDriverSettings(driver: GatewayDriver, stored: StoredSettings, updatedAt: string | null): DriverSettings {
  const plain = (name: PlainField) => stored[name] || null;
  const set = (name: SecretField) => Boolean(stored[name]);
  return {
    driver,
    settings: { url: plain('url'), username: plain('username'), account_sid: plain('account_sid'), from: plain('from') },
    secrets: { password: set('password'), api_key: set('api_key'), auth_token: set('auth_token'), signing_key: set('signing_key') },
    updated_at: updatedAt,
  };
}

/**
 * A driver's settings after a change from the console: a plain field given replaces the stored one (empty or
 * null removes it); a credential given replaces it, null removes it, and one not given (or empty, as a form
 * leaves a write-only field) keeps what is stored.
 */
export function mergeSettings(stored: StoredSettings, change: Partial<Record<GatewayField, string | null>>): StoredSettings {
  const next: StoredSettings = { ...stored };
  for (const name of PLAIN_FIELDS) {
    if (!(name in change)) continue;
    const value = change[name];
    if (value) next[name] = value;
    else delete next[name];
  }
  for (const name of SECRET_FIELDS) {
    const value = change[name];
    if (value === null) delete next[name];
    else if (value) next[name] = value;
  }
  return next;
}

/** The required settings a driver lacks (it cannot send without them). */
export function missingSettings(driver: GatewayDriver, stored: StoredSettings): DriverField[] {
  return DRIVER_FIELDS[driver].filter((field) => field.required && !stored[field.name]);
}
