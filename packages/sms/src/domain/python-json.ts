/**
 * A JSON reader whose errors read like Python's `json` module with its C
 * scanner (what FastAPI reports for a malformed body): same message, same position.
 */

/** Where and why a text is not JSON, in Python's words; `pos` counts code points like Python's `str`. */
export interface JsonDecodeError {
  msg: string;
  pos: number;
}

/** The parsed value, or Python's error for the text. */
export type JsonDecodeResult = { ok: true; value: unknown } | { ok: false; error: JsonDecodeError };

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
// Python's default recursion limit: deeper nesting is a RecursionError there, and would overflow our stack here.
const MAX_DEPTH = 1000;

class DecodeFailure extends Error {
  constructor(
    readonly reason: string,
    readonly index: number,
  ) {
    super(reason);
  }
}

/** Parses JSON text; on failure returns Python's `JSONDecodeError.msg` and `.pos`. */
export function decodeJson(text: string): JsonDecodeResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // Only malformed input pays for the slower reader that knows Python's wording.
  }
  try {
    const reader = new Reader(text);
    const value = reader.document();
    return { ok: true, value };
  } catch (error) {
    if (!(error instanceof DecodeFailure)) throw error;
    return { ok: false, error: { msg: error.reason, pos: codePointIndex(text, error.index) } };
  }
}

function codePointIndex(text: string, utf16Index: number): number {
  let count = 0;
  for (let i = 0; i < utf16Index && i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) i++;
    count++;
  }
  return count;
}

class Reader {
  private depth = 0;

  constructor(private readonly s: string) {}

  document(): unknown {
    let end = this.skip(0);
    const [value, after] = this.value(end);
    end = this.skip(after);
    if (end !== this.s.length) throw new DecodeFailure('Extra data', end);
    return value;
  }

  private skip(index: number): number {
    while (index < this.s.length && WHITESPACE.has(this.s[index])) index++;
    return index;
  }

  private value(index: number): [unknown, number] {
    const s = this.s;
    const char = s[index];
    if (char === undefined) throw new DecodeFailure('Expecting value', index);
    if (char === '"') return this.string(index + 1);
    if (char === '{' || char === '[') return this.nested(char, index);
    if (char === 'n' && s.startsWith('null', index)) return [null, index + 4];
    if (char === 't' && s.startsWith('true', index)) return [true, index + 4];
    if (char === 'f' && s.startsWith('false', index)) return [false, index + 5];
    NUMBER.lastIndex = index;
    const match = NUMBER.exec(s);
    if (match) return [Number(match[0]), index + match[0].length];
    if (char === 'N' && s.startsWith('NaN', index)) return [NaN, index + 3];
    if (char === 'I' && s.startsWith('Infinity', index)) return [Infinity, index + 8];
    if (char === '-' && s.startsWith('-Infinity', index)) return [-Infinity, index + 9];
    throw new DecodeFailure('Expecting value', index);
  }

  private nested(open: '{' | '[', index: number): [unknown, number] {
    const kind = open === '{' ? 'object' : 'array';
    if (this.depth === MAX_DEPTH) throw new DecodeFailure(`maximum recursion depth exceeded while decoding a JSON ${kind} from a unicode string`, index);
    this.depth += 1;
    const result = open === '{' ? this.object(index + 1) : this.array(index + 1);
    this.depth -= 1;
    return result;
  }

  private string(end: number): [string, number] {
    const s = this.s;
    const begin = end - 1;
    let out = '';
    for (;;) {
      let i = end;
      while (i < s.length && s[i] !== '"' && s[i] !== '\\' && s.charCodeAt(i) >= 0x20) i++;
      if (i >= s.length) throw new DecodeFailure('Unterminated string starting at', begin);
      out += s.slice(end, i);
      const terminator = s[i];
      end = i + 1;
      if (terminator === '"') return [out, end];
      if (terminator !== '\\') throw new DecodeFailure('Invalid control character at', i);
      const escaped = s[end];
      if (escaped === undefined) throw new DecodeFailure('Unterminated string starting at', begin);
      if (escaped !== 'u') {
        const replacement = ESCAPES[escaped];
        if (replacement === undefined) throw new DecodeFailure('Invalid \\escape', i);
        out += replacement;
        end += 1;
        continue;
      }
      const hex = s.slice(end + 1, end + 5);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new DecodeFailure('Invalid \\uXXXX escape', end);
      out += String.fromCharCode(parseInt(hex, 16));
      end += 5;
    }
  }

  private object(end: number): [Record<string, unknown>, number] {
    const s = this.s;
    const out: Record<string, unknown> = {};
    end = this.skip(end);
    if (s[end] === '}') return [out, end + 1];
    if (s[end] !== '"') throw new DecodeFailure('Expecting property name enclosed in double quotes', end);
    end += 1;
    for (;;) {
      const [key, afterKey] = this.string(end);
      end = this.skip(afterKey);
      if (s[end] !== ':') throw new DecodeFailure("Expecting ':' delimiter", end);
      end = this.skip(end + 1);
      const [value, afterValue] = this.value(end);
      out[key] = value;
      end = this.skip(afterValue);
      const next = s[end] ?? '';
      end += 1;
      if (next === '}') return [out, end];
      if (next !== ',') throw new DecodeFailure("Expecting ',' delimiter", end - 1);
      end = this.skip(end);
      const quote = s[end] ?? '';
      end += 1;
      if (quote !== '"') throw new DecodeFailure('Expecting property name enclosed in double quotes', end - 1);
    }
  }

  private array(end: number): [unknown[], number] {
    const s = this.s;
    const out: unknown[] = [];
    end = this.skip(end);
    if (s[end] === ']') return [out, end + 1];
    for (;;) {
      const [value, afterValue] = this.value(end);
      out.push(value);
      end = this.skip(afterValue);
      const next = s[end] ?? '';
      end += 1;
      if (next === ']') return [out, end];
      if (next !== ',') throw new DecodeFailure("Expecting ',' delimiter", end - 1);
      end = this.skip(end);
    }
  }
}
