// A save refused with 409 version_conflict: someone saved meanwhile. Shows what differs from the latest
// version and lets the editor reload it (dropping their changes) or save theirs on top anyway.
import { Button, Dialog, ErrorState, Loading, useResource } from '@switchboard/web-kit';
import type { BuilderApi } from '../api/builder-api.ts';
import type { Definition } from '../canvas/definition.ts';
import { DiffView } from './diff-view.tsx';

/** The conflict dialog. */
export function ConflictDialog({
  client,
  slug,
  latest,
  mine,
  busy,
  onReload,
  onSaveAnyway,
  onClose,
}: {
  client: BuilderApi;
  slug: string;
  latest: number | null;
  mine: Definition;
  busy: boolean;
  onReload: () => void;
  onSaveAnyway: () => void;
  onClose: () => void;
}) {
  const flow = useResource((signal) => client.flow(slug, signal), [slug, latest]);
  return (
    <Dialog
      title="Someone saved this flow meanwhile"
      onClose={onClose}
      wide
      actions={
        <>
          <Button variant="danger" onClick={onReload} disabled={busy}>
            Reload latest
          </Button>
          <Button variant="primary" onClick={onSaveAnyway} busy={busy}>
            Save anyway
          </Button>
        </>
      }
    >
      <p>
        {latest === null
          ? 'The flow was deleted since you opened it.'
          : `Version ${latest} was saved after the version you are editing. Reload it (your changes are discarded), or save yours anyway as a newer version on top of it.`}
      </p>
      {flow.error ? (
        <ErrorState error={flow.error} />
      ) : !flow.data ? (
        <Loading label="Loading the latest version…" />
      ) : (
        <DiffView before={flow.data.definition} after={mine} beforeLabel={`Version ${flow.data.version} (latest)`} afterLabel="Your canvas" />
      )}
    </Dialog>
  );
}
