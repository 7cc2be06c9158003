import { EmptyState, PageHeader } from '@switchboard/web-kit';

/** Knowledge (being built). */
export default function KnowledgePage() {
  return (
    <>
      <PageHeader title="Knowledge" />
      <div className="card">
        <EmptyState title="Knowledge">This page is being built.</EmptyState>
      </div>
    </>
  );
}
