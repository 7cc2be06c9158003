import { EmptyState, PageHeader } from '@switchboard/web-kit';

/** Builder (being built). */
export default function BuilderPage() {
  return (
    <>
      <PageHeader title="Builder" />
      <div className="card">
        <EmptyState title="Builder">This page is being built.</EmptyState>
      </div>
    </>
  );
}
