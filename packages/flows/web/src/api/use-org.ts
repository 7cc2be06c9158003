import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { orgApi, type OrgApi } from './client.ts';

/** The organization of the current URL and its API client. */
export function useOrg(): { org: string; client: OrgApi; base: string } {
  const { org = '' } = useParams();
  const client = useMemo(() => orgApi(org), [org]);
  return { org, client, base: `/orgs/${org}` };
}
