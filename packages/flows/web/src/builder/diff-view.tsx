// A line diff of two definitions (canonical JSON: keys sorted, so only real changes show), unchanged runs folded.
import { useEffect, useState } from 'react';
import { Loading } from '@switchboard/web-kit';

/** JSON with object keys sorted, two-space indented: the same definition always prints the same. */
export function canonicalJson(value: unknown): string {
  const sort = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sort);
    if (item && typeof item === 'object')
      return Object.fromEntries(
        Object.keys(item)
          .sort()
          .map((key) => [key, sort((item as Record<string, unknown>)[key])]),
      );
    return item;
  };
  return JSON.stringify(sort(value), null, 2);
}

interface Line {
  kind: 'add' | 'del' | 'same' | 'fold';
  text: string;
}

const CONTEXT = 3;

/** The diff of `before` → `after`, as labelled lines (`diff` loads on first use: only this view needs it). */
export function DiffView({ before, after, beforeLabel, afterLabel }: { before: unknown; after: unknown; beforeLabel: string; afterLabel: string }) {
  const [lines, setLines] = useState<Line[] | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void import('diff').then(({ diffLines }) => {
      if (!live) return;
      const all: Line[] = [];
      for (const part of diffLines(canonicalJson(before), canonicalJson(after))) {
        const kind = part.added ? 'add' : part.removed ? 'del' : 'same';
        for (const text of part.value.replace(/\n$/, '').split('\n')) all.push({ kind, text });
      }
      // Unchanged lines far from any change are folded.
      const near = all.map((_l, i) => all.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((l) => l.kind !== 'same'));
      const shown: Line[] = [];
      for (let i = 0; i < all.length; i += 1) {
        if (all[i].kind !== 'same' || near[i]) shown.push(all[i]);
        else if (shown[shown.length - 1]?.kind !== 'fold') shown.push({ kind: 'fold', text: '' });
      }
      setLines(shown);
    });
    return () => {
      live = false;
    };
  }, [before, after]);
  if (!lines) return <Loading label="Comparing…" />;
  const added = lines.filter((l) => l.kind === 'add').length;
  const removed = lines.filter((l) => l.kind === 'del').length;
  return (
    <div className="diff">
      <div className="diff-legend">
        <span className="diff-del-mark">− {beforeLabel}</span>
        <span className="diff-add-mark">+ {afterLabel}</span>
        <span className="faint">{added === 0 && removed === 0 ? 'No differences' : `${added} line${added === 1 ? '' : 's'} added, ${removed} removed`}</span>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the diff scrolls, and focus is how a keyboard scrolls it. */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label names that scrolled block when it takes focus (and for getByLabel in the tests). */}
      <pre className="diff-lines" aria-label="Differences" tabIndex={0}>
        {/* biome-ignore-start lint/suspicious/noArrayIndexKey: the lines of one diff, made anew with it and never reordered; the same text may come twice, so a line's place is its identity. */}
        {lines.map((line, index) =>
          line.kind === 'add' ? (
            <ins key={index}>{`+ ${line.text}\n`}</ins>
          ) : line.kind === 'del' ? (
            <del key={index}>{`- ${line.text}\n`}</del>
          ) : line.kind === 'fold' ? (
            <span key={index} className="diff-fold">
              {'  ⋯\n'}
            </span>
          ) : (
            <span key={index}>{`  ${line.text}\n`}</span>
          ),
        )}
        {/* biome-ignore-end lint/suspicious/noArrayIndexKey: the lines of one diff */}
      </pre>
    </div>
  );
}
