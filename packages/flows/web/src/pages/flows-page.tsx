import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, PageHeader, ResourceList, count, form, useResource, useTitle } from '@switchboard/web-kit';
import { useOrg } from '../api/use-org.ts';
import type { FlowSummary } from '../api/types.ts';
import { ImportDialog } from '../builder/import-dialog.tsx';
import { newFlowForm, type NewFlow } from '../components/new-flow-form.tsx';

/**
 * **Flows**: the organization's flows (search, sort), **New flow** (Blank or a template, asking only for what it
 * needs; version 1 is saved and its canvas opens), **Import flow**, and per flow **Duplicate** and **Delete** (confirmed).
 */
export default function FlowsPage() {
  const { org, client, base } = useOrg();
  const navigate = useNavigate();
  useTitle('Flows', 'Switchboard Flows');
  const flows = useResource((signal) => client.flows(signal).then((answer) => answer.flows), [org]);
  // What New flow offers: read with the page, so the form opens at once.
  const choices = useResource(
    async (signal) => {
      const [templates, providers, knowledgeBases, secrets] = await Promise.all([
        client.templates(signal).then((a) => a.templates),
        client.providers(signal).then((a) => a.providers.map((p) => p.name)),
        client.knowledgeBaseNames(signal),
        client.secretNames(signal),
      ]);
      return { templates, providers, knowledgeBases, secrets };
    },
    [org],
  );
  const [importing, setImporting] = useState(false);
  const canvas = (slug: string) => `${base}/flows/${encodeURIComponent(slug)}`;
  const opened = (created: NewFlow) =>
    navigate(canvas(created.flow.slug), { state: { created: created.flow.slug, from: created.template ? `the template "${created.template}"` : undefined } });
  return (
    <>
      <ResourceList<FlowSummary, NewFlow>
        noun="flows"
        source={flows}
        header={(create) => (
          <PageHeader title="Flows">
            <Button onClick={() => setImporting(true)}>Import flow</Button>
            {create}
          </PageHeader>
        )}
        search={{
          label: 'Search flows',
          placeholder: 'Search by name, slug or description',
          text: (flow) => `${flow.name} ${flow.slug} ${flow.description ?? ''}`,
        }}
        rowKey={(flow) => flow.slug}
        columns={[
          {
            header: 'Name',
            sort: (flow) => flow.name,
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
          { header: 'Slug', className: 'mono', sort: (flow) => flow.slug, cell: (flow) => flow.slug },
          { header: 'Version', numeric: true, sort: (flow) => flow.version, cell: (flow) => flow.version },
          { header: 'Last saved', time: (flow) => flow.updated_at },
          { header: 'Runs (24 h)', numeric: true, sort: (flow) => flow.runs_24h ?? 0, cell: (flow) => count(flow.runs_24h ?? 0) },
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
        actions={[
          {
            label: 'Duplicate',
            name: (flow) => `Duplicate ${flow.name}`,
            form: (flow) =>
              form({
                title: `Duplicate "${flow.name}"`,
                submitLabel: 'Duplicate',
                initial: { name: `${flow.name} (copy)` },
                fields: () => [
                  { name: 'name', label: 'Name', maxLength: 200, required: true, hint: 'The copy is a new flow with its own slug, starting at version 1.' },
                ],
                check: (values) => (values.name.trim() ? undefined : 'Give the copy a name.'),
                submit: (values) => client.duplicate(flow.slug, values.name.trim()),
                done: (copy) => `Duplicated as "${copy.name}" (${copy.slug})`,
              }),
          },
          {
            label: 'Delete',
            name: (flow) => `Delete ${flow.name}`,
            variant: 'danger',
            confirm: {
              title: (flow) => `Delete flow "${flow.name}"?`,
              message: (flow) => (
                <>
                  Its endpoint stops answering and its versions and drafts go. Its runs stay readable under Runs, marked with the name{' '}
                  <strong>{flow.name}</strong>.
                </>
              ),
              confirmLabel: 'Delete',
              run: (flow) => client.deleteFlow(flow.slug),
              done: (flow) => `Flow "${flow.name}" deleted`,
            },
          },
        ]}
        create={
          choices.data
            ? { label: 'New flow', form: newFlowForm(client, choices.data, base), after: opened }
            : {
                label: 'New flow',
                form: newFlowForm(client, { templates: [], providers: [], knowledgeBases: [], secrets: [] }, base),
                after: opened,
              }
        }
        empty={{
          title: 'No flows yet',
          offerCreate: true,
          children:
            'A flow is an LLM agent drawn on a canvas and callable at one endpoint. Create one to start, from a template or blank, or import a definition.',
        }}
      />
      {importing ? (
        <ImportDialog
          words={{ title: 'Import flow', intro: 'The definition (a file or pasted JSON) becomes a new flow: version 1, with a slug of its own.' }}
          onClose={() => setImporting(false)}
          onImport={async (definition) => {
            const { slug: _slug, ...rest } = definition;
            const flow = await client.saveFlow({ ...rest, note: 'Imported' });
            setImporting(false);
            void navigate(canvas(flow.slug), { state: { created: flow.slug, from: 'the imported definition' } });
          }}
        />
      ) : null}
    </>
  );
}
