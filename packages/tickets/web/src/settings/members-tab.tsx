import { useMemo } from 'react';
import { TenantMembers, useSession } from '@switchboard/web-kit';
import { useProject } from '../project-context.tsx';

/** **Members**: who may see this project; an admin adds users by email and removes them (the kit's members list, as flows and SMS have). */
export function MembersTab() {
  const project = useProject();
  const { session } = useSession();
  const { api } = project;
  const members = useMemo(
    () => ({ list: (signal: AbortSignal) => api.members(signal).then((answer) => answer.members), add: api.addMember, remove: api.removeMember }),
    [api],
  );
  return (
    <TenantMembers
      what="project"
      code={project.key}
      members={members}
      manage={session.user.role === 'admin'}
      intro="Members see this project's board, documents and settings, and can be assigned tickets."
      removeNote="Tickets assigned to them keep their assignee."
      onChanged={project.reloadMeta}
    />
  );
}
