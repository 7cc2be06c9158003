import { PageHeader, ResourceList, count, form, useResource, useTitle } from '@switchboard/web-kit';
import type { SimRecord } from '../api/types.ts';
import { useOrg } from '../org-context.ts';

/** **SIMs**: each SIM the organization has seen, with its label and phone number, and **Edit** to set them. */
export default function SimsPage() {
  const { api } = useOrg();
  const sims = useResource((signal) => api.sims(signal), [api]);
  useTitle('SIMs', 'Switchboard SMS');
  return (
    <ResourceList<SimRecord>
      noun="SIMs"
      source={sims}
      header={() => (
        <>
          <PageHeader title="SIMs" />
          <p className="muted page-intro">
            A SIM is registered the first time a message names it. Its label tells people which line it is; its phone number is the sender of messages sent from
            it, and may be learned from what it receives.
          </p>
        </>
      )}
      rowKey={(sim) => sim.sim}
      columns={[
        { header: 'SIM', className: 'mono', cell: (sim) => sim.sim },
        { header: 'Label', className: 'cell-name', cell: (sim) => sim.label ?? <span className="faint">None</span> },
        { header: 'Phone number', className: 'mono', cell: (sim) => sim.phone_number ?? <span className="faint">Unknown</span> },
        { header: 'Received', numeric: true, cell: (sim) => count(sim.inbound_count) },
        { header: 'Sent', numeric: true, cell: (sim) => count(sim.outbound_count) },
        { header: 'Last seen', time: (sim) => sim.last_seen_at },
      ]}
      actions={[
        {
          label: 'Edit',
          name: (sim) => `Edit ${sim.sim}`,
          form: (sim) =>
            form({
              title: `Edit ${sim.sim}`,
              submitLabel: 'Save',
              initial: { label: sim.label ?? '', phone_number: sim.phone_number ?? '' },
              fields: () => [
                { name: 'label', label: 'Label', placeholder: 'Support line', maxLength: 100 },
                {
                  name: 'phone_number',
                  label: 'Phone number',
                  type: 'tel',
                  placeholder: '+15551234567',
                  hint: '+ and 3 to 15 digits; leave empty if unknown.',
                },
              ],
              submit: (values) => api.setSim(sim.sim, { label: values.label.trim() || null, phone_number: values.phone_number.trim() || null }),
              done: () => `${sim.sim} saved`,
            }),
        },
      ]}
      empty={{
        title: 'No SIMs yet',
        children: 'A SIM appears here with the first message that names it (a gateway reports which SIM received or sent each message).',
      }}
    />
  );
}
