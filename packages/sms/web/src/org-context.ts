import { createContext, useContext } from 'react';
import type { OrgApi } from './api/client.ts';

/** The organization a page shows, and its API. */
export interface OrgContextValue {
  orgId: string;
  name: string;
  api: OrgApi;
}

/** Provided by the frame of every organization page. */
export const OrgContext = createContext<OrgContextValue | null>(null);

/** The current organization; only inside an organization's pages. */
export function useOrg(): OrgContextValue {
  const value = useContext(OrgContext);
  if (!value) throw new Error('useOrg outside an organization page');
  return value;
}
