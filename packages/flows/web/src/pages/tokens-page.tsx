import { EmptyState, PageHeader } from '@switchboard/web-kit';

/** Tokens (being built). */
export default function TokensPage() {
  return (
    <>
      <PageHeader title="Tokens" />
      <div className="card">
        <EmptyState title="Tokens">This page is being built.</EmptyState>
      </div>
    </>
  );
}
