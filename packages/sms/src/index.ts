// Public surface of the SMS message store.
export { buildApp, smsContext, redactSecretPath } from './app.ts';
export { loadConfig, type SmsConfig } from './config.ts';
export { bootstrap, DEMO_ORG } from './bootstrap.ts';
export { openSmsAdmin, type SmsAdmin } from './admin.ts';
export { DRIVERS, OrgStore, type DriverName, type GatewaySettings, type KeyListing } from './store/org-store.ts';
export type { MessageRecord, SimRecord } from './domain/message.ts';
