import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Dialog, EmptyState, ErrorState, FormError, Loading, PageHeader, TextField, count, timeAgo, useResource, useTitle, type ApiError } from '@switchboard/web-kit';
import { useOrg } from '../api/use-org.ts';
import { starterDefinition } from '../canvas/starter.ts';

/** **Flows**: the organization's flows and **New flow**. */
export default function FlowsPage() {
  const { org, client, base } = useOrg();
  useTitle('Flows', 'Switchboard Flows');
  const flows = useResource((signal) => client.flows(signal), [org]);
  const [creating, setCreating] = useState(false);

  return (
    <>
      <PageHeader title="Flows">
        <Button variant="primary" onClick={() => setCreating(true)}>
          New flow
        </Button>
      </PageHeader>
      {flows.error ? (
        <ErrorState error={flows.error} onRetry={flows.reload} />
      ) : !flows.data ? (
        <Loading />
      ) : flows.data.flows.length === 0 ? (
        <div className="card">
          <EmptyState title="No flows yet" action={<Button variant="primary" onClick={() => setCreating(true)}>New flow</Button>}>
            A flow is an LLM agent drawn on a canvas and callable at one endpoint. Create one to start.
          </EmptyState>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Slug</th>
                <th className="num">Version</th>
                <th>Last saved</th>
                <th className="num">Runs (24 h)</th>
                <th>
                  <span className="sr-only">Links</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {flows.data.flows.map((flow) => (
                <tr key={flow.slug}>
                  <td>
                    <Link to={`${base}/flows/${encodeURIComponent(flow.slug)}`}>{flow.name}</Link>
                    {flow.description ? <div className="faint truncate" style={{ maxWidth: 420 }}>{flow.description}</div> : null}
                  </td>
                  <td className="mono">{flow.slug}</td>
                  <td className="num">{flow.version}</td>
                  <td title={flow.updated_at}>{timeAgo(flow.updated_at)}</td>
                  <td className="num">{count(flow.runs_24h ?? 0)}</td>
                  <td className="actions-cell">
                    <Link to={`${base}/flows/${encodeURIComponent(flow.slug)}/api`} aria-label={`API of ${flow.name}`}>
                      API
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {creating ? <NewFlowDialog onClose={() => setCreating(false)} /> : null}
    </>
  );
}

/** Asks for a **Name**, saves version 1 (Input wired to a raw Output) so the flow has its slug, and opens its canvas. */
function NewFlowDialog({ onClose }: { onClose: () => void }) {
  const { client, base } = useOrg();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Give the flow a name.');
      return;
    }
    setBusy(true);
    try {
      const flow = await client.saveFlow({ ...starterDefinition(name.trim()), note: 'Created' });
      navigate(`${base}/flows/${encodeURIComponent(flow.slug)}`, { state: { created: flow.slug } });
    } catch (reason) {
      setError((reason as ApiError).message);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="New flow"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-dialog-close>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="new-flow" busy={busy}>
            Create
          </Button>
        </>
      }
    >
      <form id="new-flow" onSubmit={submit} className="stack">
        <FormError>{error}</FormError>
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Support bot" maxLength={200} required />
      </form>
    </Dialog>
  );
}
