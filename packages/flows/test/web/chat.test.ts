import { describe, expect, it } from 'vitest';
import { answered, chatVariable, newSessionId } from '../../web/src/builder/chat.ts';

describe('run as a chat', () => {
  it('is offered for a flow whose one variable is a required string "message"', () => {
    expect(chatVariable([{ name: 'message', type: 'string', required: true }])).toBe('message');
    expect(
      chatVariable([
        { name: 'message', type: 'string', required: true },
        { name: 'tone', type: 'enum', values: ['a'], default: 'a' },
      ]),
    ).toBeUndefined();
    expect(
      chatVariable([
        { name: 'message', type: 'string', required: true },
        { name: 'count', type: 'integer', required: true },
      ]),
    ).toBeUndefined();
    expect(chatVariable([{ name: 'message', type: 'string' }])).toBeUndefined();
    expect(chatVariable([{ name: 'question', type: 'string', required: true }])).toBeUndefined();
    expect(chatVariable([])).toBeUndefined();
  });

  it('adds the answer, or why the run failed, after the message', () => {
    const asked = [{ role: 'user' as const, text: 'Hi' }];
    expect(answered(asked, { answer: 'Hello!', runId: 'run_1' })).toEqual([...asked, { role: 'assistant', text: 'Hello!', runId: 'run_1' }]);
    expect(answered(asked, { answer: '', error: 'Provider error (HTTP 500): boom', runId: 'run_2' })).toEqual([
      ...asked,
      { role: 'assistant', text: 'Provider error (HTTP 500): boom', failed: true, runId: 'run_2' },
    ]);
  });

  it('makes session ids of 8 base-36 characters', () => {
    expect(newSessionId(() => 0)).toBe('chat-00000000');
    expect(newSessionId(() => 0.5)).toMatch(/^chat-[0-9a-z]{8}$/);
  });
});
