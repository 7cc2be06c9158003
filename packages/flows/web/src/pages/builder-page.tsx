// The canvas builder of one flow (`/orgs/{org}/flows/{slug}`): loads the flow, then the builder.
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { ErrorState, Loading, useResource, useTitle, type ApiError } from '@switchboard/web-kit';
import { builderApi } from '../api/builder-api.ts';
import { Builder } from '../builder/builder.tsx';

/** The canvas page: the flow's current version on the canvas, with its palette, settings, Run and Versions. */
export default function BuilderPage() {
  const { org = '', slug = '' } = useParams();
  const client = useMemo(() => builderApi(`/api/llm/${encodeURIComponent(org)}`), [org]);
  const flow = useResource((signal) => client.flow(slug, signal), [client, slug]);
  useTitle(flow.data?.name ?? 'Flow', 'Switchboard Flows');
  if (flow.error) {
    const notFound = (flow.error as ApiError).status === 404;
    return (
      <div className="page">
        <ErrorState error={flow.error} title={notFound ? 'Flow not found' : 'The flow could not be loaded'} onRetry={notFound ? undefined : flow.reload} />
      </div>
    );
  }
  if (!flow.data) return <Loading label="Opening the flow…" />;
  return <Builder key={`${org}/${slug}`} flow={flow.data} client={client} org={org} />;
}
