import { describe, expect, it } from 'vitest';
import { countSegments, segmentInfo } from '../src/domain/segments.ts';
import { normalizePhone } from '../src/domain/phone.ts';
import { decodeJson } from '../src/domain/python-json.ts';
import { retryDelayMs } from '../src/domain/retry.ts';
import { statusAdvances } from '../src/domain/message.ts';
import { timestampSignature, twilioSignature, verifyTimestampSignature, verifyTwilioSignature } from '../src/domain/signatures.ts';
import { simFromSlot, toUtcIso } from '../src/domain/webhook-event.ts';
import { isValidOrgId } from '../src/domain/org-id.ts';

describe('segments', () => {
  it("says what the Send form's counter shows: parts, encoding and what fits before another part, as countSegments counts", () => {
    expect(segmentInfo('')).toEqual({ encoding: 'GSM-7', segments: 1, units: 0, remaining: 160 });
    expect(segmentInfo('a'.repeat(161))).toEqual({ encoding: 'GSM-7', segments: 2, units: 161, remaining: 145 });
    expect(segmentInfo('€'.repeat(80))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160, remaining: 0 });
    expect(segmentInfo('Hi 🎉')).toEqual({ encoding: 'UCS-2', segments: 1, units: 5, remaining: 65 });
    expect(segmentInfo('ж'.repeat(71))).toEqual({ encoding: 'UCS-2', segments: 2, units: 71, remaining: 63 });
    for (const text of ['a'.repeat(307), '€'.repeat(81), 'ж'.repeat(135), '😀'.repeat(40)]) expect(segmentInfo(text).segments).toBe(countSegments(text));
  });

  it('counts GSM-7 texts as 160 alone and 153 per part', () => {
    expect(countSegments('a')).toBe(1);
    expect(countSegments('a'.repeat(160))).toBe(1);
    expect(countSegments('a'.repeat(161))).toBe(2);
    expect(countSegments('a'.repeat(306))).toBe(2);
    expect(countSegments('a'.repeat(307))).toBe(3);
  });

  it('counts GSM-7 extension characters as two septets', () => {
    expect(countSegments('€'.repeat(80))).toBe(1);
    expect(countSegments('€'.repeat(81))).toBe(2);
    expect(countSegments(`[${'a'.repeat(159)}`)).toBe(2);
  });

  it('counts anything outside GSM-7 as UCS-2: 70 alone, 67 per part, in UTF-16 units', () => {
    expect(countSegments('ж'.repeat(70))).toBe(1);
    expect(countSegments('ж'.repeat(71))).toBe(2);
    expect(countSegments('ж'.repeat(134))).toBe(2);
    expect(countSegments('ж'.repeat(135))).toBe(3);
    // An emoji is two UTF-16 units: 35 fit in one part, 36 do not.
    expect(countSegments('😀'.repeat(35))).toBe(1);
    expect(countSegments('😀'.repeat(36))).toBe(2);
  });
});

describe('phone numbers', () => {
  it('accepts + and 3 to 15 digits after removing spaces, dashes and parentheses', () => {
    expect(normalizePhone('+1 (555) 123-4567')).toBe('+15551234567');
    expect(normalizePhone('+123')).toBe('+123');
    expect(normalizePhone('+123456789012345')).toBe('+123456789012345');
    expect(normalizePhone('+12')).toBeUndefined();
    expect(normalizePhone('+1234567890123456')).toBeUndefined();
    expect(normalizePhone('5551234567')).toBeUndefined();
    expect(normalizePhone('+1555abc')).toBeUndefined();
  });
});

describe('JSON errors in Python words', () => {
  const cases: Array<[string, string, number]> = [
    ['', 'Expecting value', 0],
    ['{"to": }', 'Expecting value', 7],
    ["{'to': 1}", 'Expecting property name enclosed in double quotes', 1],
    ['{"to" 1}', "Expecting ':' delimiter", 6],
    ['{"to": 1 "body": 2}', "Expecting ',' delimiter", 9],
    ['{"to": 1,', 'Expecting property name enclosed in double quotes', 9],
    ['[1, 2', "Expecting ',' delimiter", 5],
    ['{"to": 1} x', 'Extra data', 10],
    ['{"to": "abc', 'Unterminated string starting at', 7],
    ['{"to": "a\\qb"}', 'Invalid \\escape', 9],
    ['{"to": "\\u12"}', 'Invalid \\uXXXX escape', 9],
    ['{"to": "a\nb"}', 'Invalid control character at', 9],
    ['{"é😀": x}', 'Expecting value', 7],
  ];
  it.each(cases)('%j → %s at %i', (text, msg, pos) => {
    expect(decodeJson(text)).toEqual({ ok: false, error: { msg, pos } });
  });

  it("stops at Python's recursion limit instead of overflowing the stack on deeply nested malformed text", () => {
    const msg = (kind: string) => `maximum recursion depth exceeded while decoding a JSON ${kind} from a unicode string`;
    expect(decodeJson('['.repeat(100_000))).toEqual({ ok: false, error: { msg: msg('array'), pos: 1000 } });
    expect(decodeJson('{"a": '.repeat(100_000))).toEqual({ ok: false, error: { msg: msg('object'), pos: 6000 } });
    expect(decodeJson('['.repeat(1000))).toEqual({ ok: false, error: { msg: 'Expecting value', pos: 1000 } });
  });

  it('parses what JSON.parse parses, and Python extras such as NaN', () => {
    expect(decodeJson('{"a": [1, "x", null, true]}')).toEqual({ ok: true, value: { a: [1, 'x', null, true] } });
    expect(decodeJson('[NaN]')).toEqual({ ok: true, value: [NaN] });
  });
});

describe('signatures', () => {
  it('verifies the Android app scheme in a five-minute window, in constant time', () => {
    const body = Buffer.from('{"event":"sms:received"}');
    const signature = timestampSignature('k3y', body, '1700000000');
    expect(verifyTimestampSignature('k3y', body, '1700000000', signature, 1700000000 + 300)).toBe(true);
    expect(verifyTimestampSignature('k3y', body, '1700000000', signature, 1700000000 + 301)).toBe(false);
    expect(verifyTimestampSignature('k3y', body, '1700000000', signature, 1700000000 - 301)).toBe(false);
    expect(verifyTimestampSignature('other', body, '1700000000', signature, 1700000000)).toBe(false);
    expect(verifyTimestampSignature('k3y', Buffer.from('{}'), '1700000000', signature, 1700000000)).toBe(false);
    expect(verifyTimestampSignature('k3y', body, undefined, signature, 1700000000)).toBe(false);
    expect(verifyTimestampSignature('k3y', body, '1700000000', 'zz', 1700000000)).toBe(false);
  });

  it('computes the Twilio signature of its documentation example', () => {
    // https://www.twilio.com/docs/usage/security#validating-requests
    const params: Array<[string, string]> = [
      ['CallSid', 'CA1234567890ABCDE'],
      ['Caller', '+12349013030'],
      ['Digits', '1234'],
      ['From', '+12349013030'],
      ['To', '+18005551212'],
    ];
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    expect(twilioSignature('12345', url, params)).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
    expect(verifyTwilioSignature('12345', url, params, '0/KCTR6DLpKmkAf8muzZqo1nDgQ=')).toBe(true);
    expect(verifyTwilioSignature('12345', `${url}x`, params, '0/KCTR6DLpKmkAf8muzZqo1nDgQ=')).toBe(false);
  });
});

describe('small rules', () => {
  it('doubles the retry wait after each failed attempt', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
  });

  it('never moves a message back in its lifecycle', () => {
    expect(statusAdvances('sending', 'sent')).toBe(true);
    expect(statusAdvances('delivered', 'sent')).toBe(false);
    expect(statusAdvances('delivered', 'failed')).toBe(false);
    expect(statusAdvances('sent', 'delivered')).toBe(true);
  });

  it('converts gateway times and SIM slots', () => {
    expect(toUtcIso('2024-06-22T15:46:11.000+07:00')).toBe('2024-06-22T08:46:11.000Z');
    expect(toUtcIso('nonsense')).toBeNull();
    expect(simFromSlot(1)).toBe('sim1');
    expect(simFromSlot('SIM2')).toBe('sim2');
    expect(simFromSlot(null)).toBeNull();
  });

  it('accepts organization ids of a-z 0-9 _ - starting with a letter or digit', () => {
    expect(isValidOrgId('acme-1_x')).toBe(true);
    expect(isValidOrgId('a'.repeat(64))).toBe(true);
    expect(isValidOrgId('a'.repeat(65))).toBe(false);
    expect(isValidOrgId('-acme')).toBe(false);
    expect(isValidOrgId('Acme')).toBe(false);
  });
});
