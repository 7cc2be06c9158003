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

// Invitation links' tokens (`sbi_`, in `/invite/…` page URLs) and OAuth's codes and tokens too (`code=` on a client's redirect, a refresh token in a query): never in a log line.
const SECRET_QUERY = /([?&](?:key|token|secret_key|api_key|access_token|refresh_token|code|code_verifier)=)[^&#]*/gi;
const TOKEN_LIKE = /\b(sms|sbf|sbt|sbo|sbr|sbc|sbi)_[A-Za-z0-9_-]{8,}/g;

/** Removes credentials from a URL: query values such as `key=` and anything shaped like one of our tokens. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]').replace(TOKEN_LIKE, '$1_[redacted]');
}

export type { Logger };
