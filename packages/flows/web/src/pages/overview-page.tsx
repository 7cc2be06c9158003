import { EmptyState, PageHeader } from '@switchboard/web-kit';

/** Overview (being built). */
export default function OverviewPage() {
  return (
    <>
      <PageHeader title="Overview" />
      <div className="card">
        <EmptyState title="Overview">This page is being built.</EmptyState>
      </div>
    </>
  );
}
