// Records of the console's API that are plain types (no schema library): the service writes them and its UI
// reads them, from this one declaration.
import type { DriverSettings, GatewayDriver } from './gateway-fields.ts';

/** A key as listings show it (never the secret). */
export interface KeyListing {
  key_id: number;
  name: string;
  hint: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A new key: the secret, shown this once. */
export interface CreatedKey {
  key_id: number;
  name: string;
  secret_key: string;
}

/** An organization's gateway as the console shows it: the sending driver, every configured driver (never a credential) and the webhook URL. */
export interface GatewayView {
  driver: GatewayDriver;
  drivers: DriverSettings[];
  webhook_url: string;
}

/** What a gateway test answers: whether the gateway took the message, its id, and what it said. */
export interface GatewayTestResult {
  ok: boolean;
  driver: string;
  external_id: string | null;
  answer: string | null;
}
