/** The organization last used in this browser, so `/` opens where the user left off. */
const KEY = 'switchboard.flows.org';

/** Remembers the organization being viewed. */
export function rememberOrg(orgCode: string): void {
  try {
    localStorage.setItem(KEY, orgCode);
  } catch {
    // Storage disabled: `/` then opens the first organization.
  }
}

/** The last organization used if the user still sees it, else the first by code. */
export function currentOrg(codes: string[]): string | undefined {
  let last: string | null = null;
  try {
    last = localStorage.getItem(KEY);
  } catch {
    last = null;
  }
  if (last && codes.includes(last)) return last;
  return [...codes].sort()[0];
}
