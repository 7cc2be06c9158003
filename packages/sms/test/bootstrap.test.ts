import { describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest } from '@switchboard/core/testing';
import { bootstrap, buildApp, loadConfig } from '../src/index.ts';

describe.each(dialectsUnderTest())('first-start bootstrap on %s', (dialect) => {
  it('creates the demo organization and prints a key with curl examples that work', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const env = { ...database.env, LOG_LEVEL: 'silent', SMS_WORKER_INTERVAL_MS: '0' };
      const result = await bootstrap(env);
      expect(result.title).toContain('SMS message store');
      const text = result.lines.join('\n');
      expect(text).toContain('org id:     demo');
      const key = /secret key: (sms_\S+)/.exec(text)![1];
      const webhook = result.lines.find((line) => line.includes('/webhook'))!;
      expect(webhook).toMatch(/^receive: +curl -X POST 'http:\/\/127\.0\.0\.1:8101\/webhook' -H 'X-Secret-Key: sms_/);
      const payload = /-d '(.+)'$/.exec(webhook)![1];
      const list = result.lines.find((line) => line.includes('/messages/'))!;
      const listPath = /'http:\/\/127\.0\.0\.1:8101(\/messages\/[^']+)'/.exec(list)![1];

      const app = await buildApp(loadConfig(env));
      try {
        const posted = await app.inject({ method: 'POST', url: '/webhook', headers: { 'x-secret-key': key, 'content-type': 'application/json' }, payload });
        expect(posted.statusCode).toBe(200);
        const listed = await app.inject({ method: 'GET', url: listPath });
        expect(listed.statusCode).toBe(200);
        expect(listed.json().messages.map((m: { body: string }) => m.body)).toEqual(['Hello from the demo']);
      } finally {
        await app.close();
      }
    } finally {
      await database.cleanup();
    }
  });
});
