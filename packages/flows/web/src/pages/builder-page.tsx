// The canvas builder of one flow (`/orgs/{org}/flows/{slug}`): loads the flow, then the builder.
import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ErrorState, Loading, NotFoundPage, useResource, useTitle, type ApiError } from '@switchboard/web-kit';
import { builderApi } from '../api/builder-api.ts';
import { Builder } from '../builder/builder.tsx';
import { placerFor } from '../builder/placement.ts';

/** The canvas page: the flow's current version on the canvas, with its palette, settings, Run and Versions. */
export default function BuilderPage() {
  const { org = '', slug = '' } = useParams();
  const client = useMemo(() => builderApi(`/api/llm/${encodeURIComponent(org)}`), [org]);
  // Nodes without a position (a flow saved by the API) are laid out: dagre loads alongside.
  // The user's draft comes with the flow: the canvas opens on it.
  const flow = useResource(
    async (signal) => {
      const [saved, draft] = await Promise.all([client.flow(slug, signal), client.draft(slug, signal)]);
      return { saved, draft, place: await placerFor(draft?.definition ?? saved.definition) };
    },
    [client, slug],
  );
  useTitle(flow.data?.saved.name ?? 'Flow', 'Switchboard Flows');
  if (flow.error) {
    const flows = `/orgs/${encodeURIComponent(org)}/flows`;
    return (
      <div className="page">
        {(flow.error as ApiError).status === 404 ? (
          <NotFoundPage title="Flow not found" crumbs={<Link to={flows}>Flows</Link>} back={{ to: flows, label: 'See all flows' }}>
            There is no flow <code className="inline-code">{slug}</code> in this organization.
          </NotFoundPage>
        ) : (
          <ErrorState error={flow.error} title="The flow could not be loaded" onRetry={flow.reload} />
        )}
      </div>
    );
  }
  if (!flow.data) return <Loading label="Opening the flow…" />;
  return <Builder key={`${org}/${slug}`} flow={flow.data.saved} draft={flow.data.draft} place={flow.data.place} client={client} org={org} />;
}
