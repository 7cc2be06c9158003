/**
 * One project's stream of changes (server-sent events), shared by every part of the page: the board and an
 * open ticket panel subscribe to it. The reconnecting, replay and resync rules are the kit's LiveStream.
 */
// The kit's own entry point for it: this file also runs in Node (its unit test), without the kit's components.
import { LiveStream, type LiveListener as KitLiveListener } from '@switchboard/web-kit/live-stream';
import type { ChangeEvent } from '../api/types.ts';

export type { LiveStatus } from '@switchboard/web-kit/live-stream';

/** A subscriber: batches of changes (events within a few milliseconds come together) and full re-reads. */
export type LiveListener = KitLiveListener<ChangeEvent>;

/** The change stream of a project (`event: change`). */
export class ProjectEvents extends LiveStream<ChangeEvent> {
  constructor(url: string) {
    super(url, 'change');
  }
}
