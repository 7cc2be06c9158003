import { EmptyState, PageHeader } from '@switchboard/web-kit';

/** Flow api (being built). */
export default function FlowApiPage() {
  return (
    <>
      <PageHeader title="Flow api" />
      <div className="card">
        <EmptyState title="Flow api">This page is being built.</EmptyState>
      </div>
    </>
  );
}
