import { AppError } from '@switchboard/core';

const PROJECT_KEY = /^[A-Z][A-Z0-9]{1,9}$/;

/** Validates a project key: 2 to 10 upper-case letters or digits, starting with a letter. */
export function validateProjectKey(raw: string): string {
  const key = raw.trim();
  if (!PROJECT_KEY.test(key)) {
    throw new AppError('invalid_request', `Project key "${raw}" is invalid: use 2 to 10 upper-case letters or digits, starting with a letter (e.g. DEMO).`);
  }
  return key;
}

const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** Validates a label colour (`#rgb` or `#rrggbb`). */
export function validateColor(raw: string): string {
  if (!COLOR.test(raw.trim())) throw new AppError('invalid_request', `Color "${raw}" is invalid: use #rgb or #rrggbb, e.g. #e11d48.`);
  return raw.trim().toLowerCase();
}
