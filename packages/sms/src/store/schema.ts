import type { Generated } from 'kysely';

/** Tables of the SMS service (timestamps are ISO 8601 UTC text; booleans never needed). */
export interface SmsTables {
  organizations: {
    org_id: string;
    name: string;
    /** Driver used for sending: android, httpsms, twilio, webhook or none. */
    active_driver: string;
    /** Bumped by every message insert: the row lock orders ids per organization on PostgreSQL. */
    seq: number;
    created_at: string;
  };
  api_keys: {
    id: Generated<number>;
    org_id: string;
    name: string;
    hash: string;
    hint: string;
    created_at: string;
    last_used_at: string | null;
    revoked_at: string | null;
  };
  gateways: {
    org_id: string;
    driver: string;
    /** AES-256-GCM sealed JSON of the driver's settings and credentials. */
    config: string;
    updated_at: string;
  };
  sims: {
    org_id: string;
    sim: string;
    label: string | null;
    phone_number: string | null;
    device_id: string | null;
    slot: number | null;
    message_count: number;
    inbound_count: number;
    outbound_count: number;
    first_seen_at: string;
    last_seen_at: string;
  };
  messages: {
    id: Generated<number>;
    org_id: string;
    direction: string;
    sim: string | null;
    from_number: string;
    to_number: string;
    /** The text; when it holds U+0000, a readable copy with U+FFFD in its place (see message-body.ts). */
    body: string;
    /** The exact UTF-8 of a body that holds U+0000 (PostgreSQL text cannot); null for every other body. */
    body_utf8: Buffer | null;
    status: string;
    segments: number;
    gateway: string | null;
    external_id: string | null;
    error: string | null;
    received_at: string | null;
    sent_at: string | null;
    delivered_at: string | null;
    created_at: string;
    updated_at: string;
    /** The other party's number: `from` of an inbound message, `to` of an outbound one (its conversation). */
    peer: string;
    /** The organization's `seq` of the commit that last inserted or changed the message: the console's live stream reads by it. */
    change_seq: number;
  };
  /** One row per conversation (organization and other party's number), kept up to date by every insert. */
  conversations: {
    org_id: string;
    peer: string;
    last_message_id: number;
    message_count: number;
    inbound_count: number;
    last_inbound_id: number | null;
  };
  /**
   * How far a reader (`user:ID` for a signed-in user, `key:ID` for a secret key) has read a conversation: its
   * messages up to read_id, of which inbound_read were inbound.
   */
  read_marks: {
    org_id: string;
    reader: string;
    peer: string;
    read_id: number;
    inbound_read: number;
    updated_at: string;
  };
  webhook_events: {
    org_id: string;
    gateway: string;
    event_id: string;
    created_at: string;
  };
  idempotency_keys: {
    org_id: string;
    key: string;
    message_id: number;
    created_at: string;
  };
  outbox: {
    message_id: number;
    org_id: string;
    attempts: number;
    /** Epoch milliseconds when the message may be tried (again). */
    next_attempt_at: number;
    /** Epoch milliseconds until which a worker holds the message; null when unclaimed. */
    lease_until: number | null;
  };
}
