import { EmptyState, PageHeader } from '@switchboard/web-kit';

/** Runs (being built). */
export default function RunsPage() {
  return (
    <>
      <PageHeader title="Runs" />
      <div className="card">
        <EmptyState title="Runs">This page is being built.</EmptyState>
      </div>
    </>
  );
}
