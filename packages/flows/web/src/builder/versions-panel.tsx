// **Versions**: every saved version (time, author, note), one opened read-only, two compared, one restored as the newest.
import { useState } from 'react';
import { Button, ConfirmDialog, Dialog, ErrorState, Loading, timeAgo, useResource, useToast, type ApiError } from '@switchboard/web-kit';
import type { BuilderApi, VersionDetail, VersionSummary } from '../api/builder-api.ts';
import { ReadOnlyCanvas } from '../canvas/read-only-canvas.tsx';
import { DiffView } from './diff-view.tsx';
import { placerFor } from './placement.ts';
import { useBuilder, useBuilderStore } from './use-builder.ts';

/** The Versions panel of flow `slug`. */
export function VersionsPanel({ client, slug, onRestored }: { client: BuilderApi; slug: string; onRestored: (version: number) => void }) {
  const current = useBuilder((s) => s.version);
  const versions = useResource((signal) => client.versions(slug, signal), [slug, current]);
  const [compare, setCompare] = useState<number[]>([]);
  const [open, setOpen] = useState<number | undefined>(undefined);
  const [diff, setDiff] = useState<[number, number] | undefined>(undefined);
  const [restoring, setRestoring] = useState<number | undefined>(undefined);

  if (versions.error) return <ErrorState error={versions.error} onRetry={versions.reload} />;
  if (!versions.data) return <Loading label="Loading versions…" />;
  const list = versions.data.versions;
  const toggle = (version: number, on: boolean) =>
    setCompare((chosen) => (on ? [...chosen.filter((v) => v !== version), version].slice(-2) : chosen.filter((v) => v !== version)));
  return (
    <section className="panel-section" aria-label="Version history">
      <div className="row between">
        <h2 className="panel-heading">Versions</h2>
        <Button small disabled={compare.length !== 2} onClick={() => setDiff([Math.min(...compare), Math.max(...compare)])}>
          Compare
        </Button>
      </div>
      <p className="hint">Tick two versions to compare them.</p>
      <ul aria-label="Versions" className="plain-list version-list">
        {list.map((version) => (
          <VersionItem
            key={version.version}
            version={version}
            current={version.version === current}
            chosen={compare.includes(version.version)}
            onChoose={(on) => toggle(version.version, on)}
            onOpen={() => setOpen(version.version)}
            onRestore={() => setRestoring(version.version)}
          />
        ))}
      </ul>
      {open !== undefined ? (
        <VersionDialog
          client={client}
          slug={slug}
          version={open}
          onClose={() => setOpen(undefined)}
          onRestore={() => {
            setOpen(undefined);
            setRestoring(open);
          }}
        />
      ) : null}
      {diff ? <CompareDialog client={client} slug={slug} versions={diff} onClose={() => setDiff(undefined)} /> : null}
      {restoring !== undefined ? (
        <RestoreDialog
          client={client}
          slug={slug}
          version={restoring}
          onClose={() => setRestoring(undefined)}
          onDone={(saved) => {
            setRestoring(undefined);
            onRestored(saved);
          }}
        />
      ) : null}
    </section>
  );
}

function VersionItem({
  version,
  current,
  chosen,
  onChoose,
  onOpen,
  onRestore,
}: {
  version: VersionSummary;
  current: boolean;
  chosen: boolean;
  onChoose: (on: boolean) => void;
  onOpen: () => void;
  onRestore: () => void;
}) {
  return (
    <li className={`version ${current ? 'current' : ''}`}>
      <div className="version-head">
        <strong>Version {version.version}</strong>
        {current ? <span className="badge accent">current</span> : null}
      </div>
      <div className="version-meta faint">
        <time dateTime={version.created_at} title={new Date(version.created_at).toLocaleString()}>
          {timeAgo(version.created_at)}
        </time>
        {' · '}
        <span>{version.author ?? 'unknown author'}</span>
      </div>
      {version.note ? <div className="version-note">{version.note}</div> : null}
      <div className="version-actions">
        <label className="checkbox small">
          <input type="checkbox" checked={chosen} onChange={(e) => onChoose(e.target.checked)} aria-label={`Compare version ${version.version}`} />
          Compare
        </label>
        <Button small variant="ghost" onClick={onOpen} aria-label={`Open version ${version.version}`}>
          Open
        </Button>
        {current ? null : (
          <Button small variant="ghost" onClick={onRestore} aria-label={`Restore version ${version.version}`}>
            Restore
          </Button>
        )}
      </div>
    </li>
  );
}

/** One version, read-only. */
function VersionDialog({
  client,
  slug,
  version,
  onClose,
  onRestore,
}: {
  client: BuilderApi;
  slug: string;
  version: number;
  onClose: () => void;
  onRestore: () => void;
}) {
  const detail = useResource((signal) => client.version(slug, version, signal), [slug, version]);
  const current = useBuilder((s) => s.version);
  return (
    <Dialog
      title={`Version ${version} (read-only)`}
      onClose={onClose}
      wide
      closeLabel="Close"
      actions={
        version === current ? null : (
          <Button variant="primary" onClick={onRestore}>
            Restore
          </Button>
        )
      }
    >
      {detail.error ? <ErrorState error={detail.error} /> : !detail.data ? <Loading /> : <VersionBody detail={detail.data} />}
    </Dialog>
  );
}

function VersionBody({ detail }: { detail: VersionDetail }) {
  return (
    <>
      <div className="faint">
        Saved {new Date(detail.created_at).toLocaleString()} by {detail.author ?? 'unknown author'}
        {detail.note ? ` · ${detail.note}` : ''}
      </div>
      <ReadOnlyCanvas definition={detail.definition} label={`Canvas of version ${detail.version}`} />
    </>
  );
}

/** The diff of two versions. */
function CompareDialog({ client, slug, versions, onClose }: { client: BuilderApi; slug: string; versions: [number, number]; onClose: () => void }) {
  const [older, newer] = versions;
  const both = useResource((signal) => Promise.all([client.version(slug, older, signal), client.version(slug, newer, signal)]), [slug, older, newer]);
  return (
    <Dialog title={`Version ${older} → version ${newer}`} onClose={onClose} wide footer={<Button onClick={onClose}>Close</Button>}>
      {both.error ? (
        <ErrorState error={both.error} />
      ) : !both.data ? (
        <Loading />
      ) : (
        <DiffView before={both.data[0].definition} after={both.data[1].definition} beforeLabel={`Version ${older}`} afterLabel={`Version ${newer}`} />
      )}
    </Dialog>
  );
}

/** Restores a version as the newest (after confirming when the canvas has unsaved changes). */
function RestoreDialog({
  client,
  slug,
  version,
  onClose,
  onDone,
}: {
  client: BuilderApi;
  slug: string;
  version: number;
  onClose: () => void;
  onDone: (saved: number) => void;
}) {
  const store = useBuilderStore();
  const dirty = useBuilder((s) => s.dirty);
  const notify = useToast();
  const [busy, setBusy] = useState(false);
  const restore = async () => {
    setBusy(true);
    try {
      const saved = await client.restore(slug, version, { baseVersion: store.getState().version });
      store.load(saved.definition, saved.version, await placerFor(saved.definition));
      notify(`Restored version ${version} as version ${saved.version}`);
      onDone(saved.version);
    } catch (reason) {
      const error = reason as ApiError;
      notify(error.code === 'version_conflict' ? 'Someone saved a newer version meanwhile: reload the flow before restoring.' : error.message, 'error');
      setBusy(false);
      onClose();
    }
  };
  return (
    <ConfirmDialog
      title={`Restore version ${version}?`}
      message={
        dirty
          ? `It is saved again as the newest version, and the canvas shows it. Your unsaved changes on the canvas are discarded.`
          : 'It is saved again as the newest version, and the canvas shows it. Earlier versions stay in the history.'
      }
      confirmLabel="Restore"
      danger={dirty}
      busy={busy}
      onConfirm={() => void restore()}
      onCancel={onClose}
    />
  );
}
