import { Badge } from '@switchboard/web-kit';

/** A run's or trace entry's status as a coloured label. */
export function StatusBadge({ status }: { status: string }) {
  const kind = status === 'succeeded' ? 'success' : status === 'failed' ? 'danger' : status === 'running' ? 'accent' : undefined;
  return <Badge kind={kind}>{status}</Badge>;
}
