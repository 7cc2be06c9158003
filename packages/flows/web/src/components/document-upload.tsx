import { useCallback, useRef, useState, type DragEvent } from 'react';
import { Button, ProgressBar } from '@switchboard/web-kit';
import { ACCEPTED_FILES, documentBodyOf, type DocumentBody, type UploadAnswer } from '../api/knowledge-api.ts';

/** One file on its way into a knowledge base. */
export interface UploadItem {
  key: number;
  name: string;
  size: number;
  /** Share of the body sent, 0..1. */
  progress: number;
  state: 'waiting' | 'uploading' | 'indexing' | 'done' | 'failed';
  chunks?: number;
  /** What the upload did to the knowledge base. */
  outcome?: 'added' | 'replaced' | 'unchanged';
  error?: string;
}

/** Uploads that run at once; the rest wait their turn. */
const PARALLEL = 2;
const TEXT_NAME = /\.(txt|text|md|markdown|pdf|csv|tsv|json|jsonl|log|html?|xml|rst|adoc|ya?ml)$/i;

/** Whether the documents API reads this file (text of any kind, Markdown, PDF). */
export function isAcceptedFile(file: { name: string; type: string }): boolean {
  return file.type.startsWith('text/') || file.type === 'application/pdf' || file.type === 'application/json' || TEXT_NAME.test(file.name);
}

type Send = (document: DocumentBody, onProgress: (sent: number) => void) => Promise<UploadAnswer>;

/**
 * The upload queue of one knowledge base: each file with its own request
 * (so each has its own progress bar and its own error), two at a time;
 * `onAdded` after each file that was added. Uploads go on when the user
 * leaves the page (their documents are added all the same).
 */
export function useUploads(send: Send, onAdded: () => void) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const queue = useRef<Array<{ key: number; file: File }>>([]);
  const active = useRef(0);
  const nextKey = useRef(1);
  const sendRef = useRef(send);
  sendRef.current = send;
  const addedRef = useRef(onAdded);
  addedRef.current = onAdded;

  const update = useCallback(
    (key: number, change: Partial<UploadItem>) => setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item))),
    [],
  );

  const pump = useCallback(() => {
    while (active.current < PARALLEL && queue.current.length > 0) {
      const { key, file } = queue.current.shift()!;
      active.current++;
      update(key, { state: 'uploading' });
      void (async () => {
        try {
          const body = await documentBodyOf(file);
          const answer = await sendRef.current(body, (sent) => update(key, sent >= 1 ? { progress: 1, state: 'indexing' } : { progress: sent }));
          const added = answer.added[0];
          update(key, {
            progress: 1,
            state: 'done',
            chunks: added?.chunks ?? answer.chunks,
            outcome: added?.unchanged ? 'unchanged' : added?.replaced ? 'replaced' : 'added',
          });
          addedRef.current();
        } catch (reason) {
          const error = reason as Error & { status?: number };
          if (error.name === 'AbortError') return;
          update(key, { state: 'failed', error: error.status === 413 ? 'The file is larger than the service accepts (its BODY_LIMIT).' : error.message });
        } finally {
          active.current--;
          pump();
        }
      })();
    }
  }, [update]);

  const add = useCallback(
    (files: File[]) => {
      const fresh: UploadItem[] = [];
      for (const file of files) {
        const key = nextKey.current++;
        if (!isAcceptedFile(file)) {
          fresh.push({ key, name: file.name, size: file.size, progress: 0, state: 'failed', error: 'Not a text, Markdown or PDF file' });
          continue;
        }
        fresh.push({ key, name: file.name, size: file.size, progress: 0, state: 'waiting' });
        queue.current.push({ key, file });
      }
      setItems((list) => [...fresh.reverse(), ...list]);
      pump();
    },
    [pump],
  );

  const clearFinished = useCallback(() => setItems((list) => list.filter((item) => item.state !== 'done' && item.state !== 'failed')), []);
  return { items, add, clearFinished };
}

/** The drop zone: files dropped on it or chosen with **Choose files** (several at once). */
export function DropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    depth.current = 0;
    setOver(false);
    const files = Array.from(event.dataTransfer.files ?? []);
    if (files.length > 0) onFiles(files);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a drop target holding a button, not a set of form fields: a fieldset would want a legend and bring its own box.
    <div
      className={`drop-zone${over ? ' over' : ''}`}
      role="group"
      aria-label="Upload documents"
      onDragEnter={(event) => {
        event.preventDefault();
        depth.current++;
        setOver(true);
      }}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={onDrop}
    >
      <div className="drop-zone-text">
        <strong>Drop files here</strong>
        <span className="muted">Text, Markdown or PDF, several at once</span>
      </div>
      <label className="btn file-button">
        Choose files
        <input
          type="file"
          className="sr-only"
          multiple
          accept={ACCEPTED_FILES}
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            event.target.value = '';
            if (files.length > 0) onFiles(files);
          }}
        />
      </label>
    </div>
  );
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Each upload with its progress bar and outcome. */
export function UploadList({ items, onClear }: { items: UploadItem[]; onClear: () => void }) {
  if (items.length === 0) return null;
  const finished = items.some((item) => item.state === 'done' || item.state === 'failed');
  return (
    <div className="uploads">
      <ul className="plain-list upload-list" aria-label="Uploads">
        {items.map((item) => (
          <li key={item.key} className={`upload upload-${item.state}`}>
            <div className="upload-head">
              <span className="upload-name">{item.name}</span>
              <span className="faint">{size(item.size)}</span>
              <span className="upload-state" aria-live="polite">
                {item.state === 'waiting'
                  ? 'Waiting'
                  : item.state === 'uploading'
                    ? `Uploading ${Math.round(item.progress * 100)}%`
                    : item.state === 'indexing'
                      ? 'Indexing…'
                      : item.state === 'done'
                        ? item.outcome === 'unchanged'
                          ? 'Unchanged: the same content is already there'
                          : `${item.outcome === 'replaced' ? 'Replaced the document of that name' : 'Added'}: ${item.chunks} ${item.chunks === 1 ? 'chunk' : 'chunks'}`
                        : `Failed: ${item.error}`}
              </span>
            </div>
            <ProgressBar value={item.state === 'failed' ? 0 : item.progress} label={`Upload of ${item.name}`} />
          </li>
        ))}
      </ul>
      {finished ? (
        <Button small variant="ghost" onClick={onClear}>
          Clear finished
        </Button>
      ) : null}
    </div>
  );
}
