import type { LiveStatus } from './live-stream.ts';

/** "Live" while a change stream is up, "Reconnecting…" while it is not; `title` says what appears live (and, when not, that it will once the connection is back). */
export function LiveIndicator({ status, title }: { status: LiveStatus; title: { live: string; waiting: string } }) {
  const label = status === 'live' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…';
  return (
    <span className={`live-indicator ${status}`} role="status" aria-live="polite" title={status === 'live' ? title.live : title.waiting}>
      <span className="live-dot" aria-hidden="true" />
      {label}
    </span>
  );
}
