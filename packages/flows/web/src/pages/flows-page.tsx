import { Link, useNavigate } from 'react-router-dom';
import { PageHeader, ResourceList, count, form, useResource, useTitle } from '@switchboard/web-kit';
import { useOrg } from '../api/use-org.ts';
import { starterDefinition } from '../canvas/starter.ts';

/** **Flows**: the organization's flows and **New flow** (a **Name**; version 1, an Input wired to a raw Output, is saved so the flow has its slug, and its canvas opens). */
export default function FlowsPage() {
  const { org, client, base } = useOrg();
  const navigate = useNavigate();
  useTitle('Flows', 'Switchboard Flows');
  const flows = useResource((signal) => client.flows(signal).then((answer) => answer.flows), [org]);
  const canvas = (slug: string) => `${base}/flows/${encodeURIComponent(slug)}`;
  return (
    <ResourceList
      noun="flows"
      source={flows}
      header={(create) => <PageHeader title="Flows">{create}</PageHeader>}
      rowKey={(flow) => flow.slug}
      columns={[
        {
          header: 'Name',
          cell: (flow) => (
            <>
              <Link to={canvas(flow.slug)}>{flow.name}</Link>
              {flow.description ? (
                <div className="faint truncate" style={{ maxWidth: 420 }}>
                  {flow.description}
                </div>
              ) : null}
            </>
          ),
        },
        { header: 'Slug', className: 'mono', cell: (flow) => flow.slug },
        { header: 'Version', numeric: true, cell: (flow) => flow.version },
        { header: 'Last saved', time: (flow) => flow.updated_at },
        { header: 'Runs (24 h)', numeric: true, cell: (flow) => count(flow.runs_24h ?? 0) },
        {
          header: 'Links',
          quietHeader: true,
          className: 'actions-cell',
          cell: (flow) => (
            <Link to={`${canvas(flow.slug)}/api`} aria-label={`API of ${flow.name}`}>
              API
            </Link>
          ),
        },
      ]}
      create={{
        label: 'New flow',
        form: form({
          submitLabel: 'Create',
          initial: { name: '' },
          fields: () => [{ name: 'name', label: 'Name', placeholder: 'Support bot', maxLength: 200, required: true }],
          check: (values) => (values.name.trim() ? undefined : 'Give the flow a name.'),
          submit: (values) => client.saveFlow({ ...starterDefinition(values.name.trim()), note: 'Created' }),
        }),
        after: (flow) => navigate(canvas(flow.slug), { state: { created: flow.slug } }),
      }}
      empty={{ title: 'No flows yet', offerCreate: true, children: 'A flow is an LLM agent drawn on a canvas and callable at one endpoint. Create one to start.' }}
    />
  );
}
