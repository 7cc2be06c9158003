import pino, { type Logger } from 'pino';

/** Header and field paths whose values never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-secret-key"]',
  'req.headers.cookie',
  'req.headers["x-twilio-signature"]',
  'req.headers["x-signature"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.api_key',
  '*.apiKey',
  '*.auth_token',
  '*.secret_key',
  '*.token',
];

/** Creates the JSON logger of a service (pino), with secrets redacted. */
export function createLogger(options: { service: string; level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}

const SECRET_QUERY = /([?&](?:key|token|secret_key|api_key|access_token)=)[^&#]*/gi;
const TOKEN_LIKE = /\b(sms|sbf|sbt)_[A-Za-z0-9_-]{8,}/g;

/** Removes credentials from a URL: query values such as `key=` and anything shaped like one of our tokens. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]').replace(TOKEN_LIKE, '$1_[redacted]');
}

export type { Logger };
