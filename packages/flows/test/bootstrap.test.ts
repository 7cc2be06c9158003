import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { listen, type App } from '@switchboard/core';
import { bootstrap, buildApp, loadConfig } from '../src/index.ts';

describe.each(dialectsUnderTest())('bootstrap on %s', (dialect) => {
  let db: TestDatabase;
  let app: App | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await app?.close();
    await db?.cleanup();
  });

  it('creates the demo organization, a manage token and a demo flow the printed curl line can call', async () => {
    const result = await bootstrap(db.env);
    expect(result.title).toBe('Flow execution');
    expect(result.lines[0]).toBe('org_code: demo');
    const token = /sbf_[A-Za-z0-9_-]{43}/.exec(result.lines[1])![0];
    expect(result.lines.some((line) => line.includes('/api/llm/demo/flows/hello/run') && line.includes(token))).toBe(true);
    expect(result.lines.at(-1)).toMatch(/^dashboard \(canvas builder, runs, LLM Hub\): http:\/\/127\.0\.0\.1:\d+\/ \(sign in as the admin user above\)$/);
    app = await buildApp(loadConfig({ ...db.env, LOG_LEVEL: 'silent' }));
    const base = await listen(app, '127.0.0.1', 0);
    const response = await fetch(`${base}/api/llm/demo/flows/hello/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"input": {"question": "Hi"}}',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }>; usage: unknown };
    expect(body.choices[0].message.content).toBe('Hello! You asked: Hi');
    expect(body.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    const again = await bootstrap(db.env);
    expect(again.lines[0]).toBe('org_code: demo');
  });
});
