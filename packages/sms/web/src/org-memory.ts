/** The organization last used in this browser, so `/` opens where the user left off. */
const KEY = 'switchboard.sms.org';

/** Remembers the organization being viewed. */
export function rememberOrg(orgId: string): void {
  try {
    localStorage.setItem(KEY, orgId);
  } catch {
    // Storage disabled: `/` then opens the first organization.
  }
}

/** The last organization used if the user still sees it, else the first by id. */
export function currentOrg(ids: string[]): string | undefined {
  let last: string | null = null;
  try {
    last = localStorage.getItem(KEY);
  } catch {
    last = null;
  }
  if (last && ids.includes(last)) return last;
  return [...ids].sort()[0];
}
