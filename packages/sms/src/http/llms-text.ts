/** /llms.txt: everything an LLM agent needs to use the service, in the llms.txt convention. */
export function llmsText(base: string): string {
  return `# Switchboard SMS message store

> A multi-tenant SMS inbox and outbox over HTTP: gateways (an Android phone app, httpSMS, Twilio, or your own code) post received messages and delivery reports to one webhook; clients read messages incrementally with a since_id cursor and send messages that the service delivers durably, with retries.

Base URL: ${base}
Version: 1.0. Every organization has an id (org_id) and one or more secret keys (prefix sms_).

## Authentication

- Path: GET /messages/{org_id}/{secret_key} and GET /sims/{org_id}/{secret_key} carry the key in the path.
- Header: \`Authorization: Bearer KEY\` or \`X-Secret-Key: KEY\` on GET /messages/{org_id}, POST /send/{org_id} and POST /webhook.
- Query: \`?key=KEY\` on POST /webhook only (for gateways that can only be given a URL).
- Every credential failure answers 401 {"detail": "Invalid credentials"}.

## Endpoints

### GET /messages/{org_id}/{secret_key} and GET /messages/{org_id}
List messages with id > since_id, ascending by id.
Query parameters (all optional):
- limit: integer 1..1000, default 100
- since_id: integer >= 0, default 0
- direction: "inbound" or "outbound"
- sim: a SIM id (e.g. "sim1") or its phone number
Answer: {"messages": [Message...], "count": N, "next_since_id": M, "has_more": bool}. Poll by passing next_since_id back as since_id: you see every message exactly once, in order. has_more true means call again right away.
Message: {"id", "org_id", "direction", "sim", "from", "to", "body", "status", "segments", "gateway", "external_id", "error", "received_at", "sent_at", "delivered_at", "created_at", "updated_at"}; status is received (inbound) or queued, sending, sent, delivered, failed (outbound).
Invalid parameters answer 422 {"detail": [{"type", "loc", "msg", "input", "ctx"}]} (FastAPI/pydantic format).

    curl '${base}/messages/ORG_ID/SECRET_KEY?since_id=0&limit=100'
    curl -H 'Authorization: Bearer SECRET_KEY' '${base}/messages/ORG_ID?direction=inbound&sim=sim1'

### GET /sims/{org_id}/{secret_key}
The SIMs seen in the organization's messages: {"sims": [{"sim", "label", "phone_number", "device_id", "slot", "message_count", "inbound_count", "outbound_count", "first_seen_at", "last_seen_at"}]}.

    curl '${base}/sims/ORG_ID/SECRET_KEY'

### POST /send/{org_id}
Queue a message: JSON body {"to": "+15551234567", "body": "text", "sim": "sim1" (optional)}. to is + and 3 to 15 digits (spaces, dashes, parentheses ignored); body 1 to 1600 characters. Optional header Idempotency-Key: a repeat within 24 hours returns the first message and sends nothing. Answer 200 with the Message (status "queued"; a "warning" field when the organization has no gateway driver). 429 {"detail": "Rate limit exceeded"} with Retry-After past the per-organization limit. Follow the status with GET /messages?direction=outbound.

    curl -X POST -H 'Authorization: Bearer SECRET_KEY' -H 'Content-Type: application/json' -H 'Idempotency-Key: order-42' \\
      -d '{"to": "+15551234567", "body": "Your order shipped"}' '${base}/send/ORG_ID'

### POST /webhook
Gateways post received messages and delivery reports here. Authenticate with X-Secret-Key, Authorization: Bearer or ?key=. Formats:
- native JSON: {"event": "sms.received", "message": {"from", "to", "body", "sim"?, "external_id"?, "received_at"?}}; delivery report {"event": "sms.sent"|"sms.delivered"|"sms.failed", "id"?: OUR_ID, "external_id"?: ID, "error"?: TEXT}; batch {"events": [...]}
- SMS Gateway for Android: {"deviceId", "event": "sms:received"|"sms:sent"|"sms:delivered"|"sms:failed"|"system:ping", "id", "payload"}; X-Signature/X-Timestamp checked when a signing key is set
- httpSMS: CloudEvents {"specversion", "id", "type": "message.phone.received"|..., "data"}; JWT in Authorization checked when a signing key is set
- Twilio: application/x-www-form-urlencoded (MessageSid, From, To, Body / MessageStatus); X-Twilio-Signature checked when the auth token is set; answered with empty TwiML
Answer: {"status": "ok", "stored": [ids], "duplicates": N, "updated": N}. The same gateway event posted twice is stored once.

    curl -X POST '${base}/webhook?key=SECRET_KEY' -H 'Content-Type: application/json' \\
      -d '{"event": "sms.received", "message": {"from": "+15550001111", "to": "+15552223333", "body": "Hello", "sim": "sim1"}}'

### Conversations (the console's API; the same key in a header, or a signed-in user's session cookie)
- GET /api/orgs/{org_id}/conversations?limit=50&before=&sim=&direction= : {"conversations": [{"peer", "last_message": Message, "message_count", "unread"}], "next_before", "seq"}, one per other party's number, the latest first; page on with before=next_before. unread counts inbound messages after your read mark.
- GET /api/orgs/{org_id}/conversations/{peer}/messages?limit=50&before= : {"peer", "messages": [Message...] ascending, "next_before_id"}; peer URL-encoded (%2B for +).
- POST /api/orgs/{org_id}/conversations/{peer}/read {"up_to_id": ID} : marks it read up to that message.
- GET /api/orgs/{org_id}/events : server-sent events, one "messages" event per commit {"seq", "messages": [...]} (new messages and delivery states); resume with Last-Event-ID or ?since=SEQ.
- GET /api/orgs/{org_id}/gateway, PUT it {"driver", settings...}, POST /api/orgs/{org_id}/gateway/test {"to"} : the gateway (credentials only as set or not), setting it, one test message and the gateway's answer.
- GET /api/orgs/{org_id}/sims, PATCH /api/orgs/{org_id}/sims/{sim} {"label", "phone_number"}.

    curl -H 'X-Secret-Key: SECRET_KEY' '${base}/api/orgs/ORG_ID/conversations?limit=20'
    curl -H 'X-Secret-Key: SECRET_KEY' '${base}/api/orgs/ORG_ID/conversations/%2B15550001111/messages'

### GET /health
{"status": "ok", "version": "1.0", "database": "ok"}; 503 when the database does not answer.

### Other
- GET / : HTML page with a small inbox (the web console at / and /orgs/{org_id}/… for signed-in users: /login)
- GET /openapi.json, GET /docs : OpenAPI 3.1 description and its viewer
- GET /metrics : Prometheus metrics
`;
}
