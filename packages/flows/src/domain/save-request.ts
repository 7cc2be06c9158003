import { FlowsError } from './errors.ts';

/** Longest note a saved version may carry. */
export const MAX_NOTE_LENGTH = 500;

/** What a save carries besides the definition (design/flows.md: versions). */
export interface SaveOptions {
  /** Shown in the version history; at most MAX_NOTE_LENGTH characters. */
  note?: string;
  /** The version the edit started from: the save is refused with 409 unless it is still the latest. */
  baseVersion?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Takes a save body's top-level `note` and `base_version` out of it (they
 * are never part of the definition) and checks them. A body that is not an
 * object is passed on for validation to refuse.
 */
export function splitSaveBody(body: unknown): { definition: unknown } & SaveOptions {
  if (!isObject(body)) return { definition: body };
  const { note, base_version: baseVersion, ...definition } = body;
  return { definition, ...checkSaveOptions({ note, base_version: baseVersion }) };
}

/** Checks `note` and `base_version` as a body gives them (absent or null: not given; an empty note: none). */
export function checkSaveOptions(values: { note?: unknown; base_version?: unknown }): SaveOptions {
  const options: SaveOptions = {};
  if (values.note !== undefined && values.note !== null) {
    if (typeof values.note !== 'string' || values.note.length > MAX_NOTE_LENGTH) {
      throw new FlowsError('invalid_request', `"note" must be a string of at most ${MAX_NOTE_LENGTH} characters`, 'invalid_request', { param: 'note' });
    }
    if (values.note !== '') options.note = values.note;
  }
  if (values.base_version !== undefined && values.base_version !== null) {
    if (!Number.isInteger(values.base_version) || (values.base_version as number) < 1) {
      throw new FlowsError('invalid_request', '"base_version" must be a positive integer: the version the edit started from', 'invalid_request', {
        param: 'base_version',
      });
    }
    options.baseVersion = values.base_version as number;
  }
  return options;
}

/** The version an `If-Match: "N"` header names (quotes optional, a weak `W/` prefix accepted); 400 for anything else. */
export function ifMatchVersion(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  const match = /^(?:W\/)?"?([1-9][0-9]{0,14})"?$/.exec(value);
  if (!match) throw new FlowsError('invalid_request', 'If-Match must name one version of the flow, as "N"', 'invalid_request', { param: 'If-Match' });
  return Number(match[1]);
}

/** The base version a save names in its body and its If-Match header (either, or both when equal); 400 when they differ. */
export function baseVersionOf(body: number | undefined, header: number | undefined): number | undefined {
  if (body !== undefined && header !== undefined && body !== header) {
    throw new FlowsError('invalid_request', `"base_version" (${body}) and If-Match (${header}) name different versions`, 'invalid_request', {
      param: 'base_version',
    });
  }
  return body ?? header;
}
