import { PageHeader, TenantMembers, useSession, useTitle } from '@switchboard/web-kit';
import { useOrg } from '../org-context.ts';

/** **Members** (admins): who may use this organization's console besides the admins; add by email, remove confirmed. */
export default function MembersPage() {
  const { orgId, api } = useOrg();
  const { session } = useSession();
  useTitle('Members', 'Switchboard SMS');
  return (
    <>
      <PageHeader title="Members" />
      <TenantMembers
        what="organization"
        code={orgId}
        members={{ list: api.members, add: api.addMember, remove: api.removeMember }}
        manage={session.user.role === 'admin'}
        intro="Members use this organization's console: its conversations, sending, gateway, SIMs and keys."
      />
    </>
  );
}
