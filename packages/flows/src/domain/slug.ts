/** Slugs: the stable public name of a flow in its URL. */

/** What a slug may look like: 1-60 of a-z, 0-9 and inner hyphens. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/;

/** A slug derived from a flow's name (`Support bot!` → `support-bot`); `flow` when nothing is left. */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  return base || 'flow';
}

/** The candidates tried in turn on first save: `base`, `base-2`, `base-3`… */
export function slugCandidate(base: string, attempt: number): string {
  return attempt <= 1 ? base : `${base}-${attempt}`;
}

/** Organization codes: 2 to 40 characters of a-z, 0-9 and `-`. */
export const ORG_CODE_PATTERN = /^[a-z0-9-]{2,40}$/;
