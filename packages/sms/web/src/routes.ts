/** The console's URLs, in one place: every page has its own, the organization in it. */
const enc = encodeURIComponent;

/** URLs of one organization's pages. */
export const paths = {
  inbox: (org: string) => `/orgs/${enc(org)}/inbox`,
  conversation: (org: string, peer: string) => `/orgs/${enc(org)}/inbox/${enc(peer)}`,
  send: (org: string, to?: string) => `/orgs/${enc(org)}/send${to ? `?to=${enc(to)}` : ''}`,
  gateway: (org: string) => `/orgs/${enc(org)}/gateway`,
  sims: (org: string) => `/orgs/${enc(org)}/sims`,
  keys: (org: string) => `/orgs/${enc(org)}/keys`,
  members: (org: string) => `/orgs/${enc(org)}/members`,
};
