import { EmptyState, PageHeader } from '@switchboard/web-kit';

/** Run (being built). */
export default function RunPage() {
  return (
    <>
      <PageHeader title="Run" />
      <div className="card">
        <EmptyState title="Run">This page is being built.</EmptyState>
      </div>
    </>
  );
}
