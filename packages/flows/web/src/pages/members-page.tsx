import { useMemo } from 'react';
import { PageHeader, TenantMembers, api, useSession, useTitle, type TenantPerson } from '@switchboard/web-kit';
import { useOrg } from '../api/use-org.ts';

/** **Members** (admins): who may see and manage this organization besides the admins; add by email, remove confirmed. */
export default function MembersPage() {
  const { org } = useOrg();
  const { session } = useSession();
  useTitle('Members', 'Switchboard Flows');
  const members = useMemo(() => {
    const base = `/api/llm/${encodeURIComponent(org)}/members`;
    return {
      list: (signal: AbortSignal) => api<{ members: TenantPerson[] }>(base, { signal }).then((answer) => answer.members),
      add: (email: string) => api<unknown>(base, { method: 'POST', body: { email } }),
      remove: (userId: string) => api<unknown>(`${base}/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
    };
  }, [org]);
  return (
    <>
      <PageHeader title="Members" />
      <TenantMembers
        what="organization"
        code={org}
        members={members}
        manage={session.user.role === 'admin'}
        intro="Members see this organization's flows, runs, knowledge and LLM Hub, and manage them as a manage token would."
      />
    </>
  );
}
