import { EmptyState, PageHeader } from '@switchboard/web-kit';

/** Providers (being built). */
export default function ProvidersPage() {
  return (
    <>
      <PageHeader title="Providers" />
      <div className="card">
        <EmptyState title="Providers">This page is being built.</EmptyState>
      </div>
    </>
  );
}
