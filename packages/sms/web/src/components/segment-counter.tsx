import { segmentInfo } from '../../../src/domain/segments.ts';

/** The counter under a message's text: parts, encoding and what fits before the next part, counted as the service counts them. */
export function SegmentCounter({ text, id }: { text: string; id?: string }) {
  const info = segmentInfo(text);
  const parts = `${info.segments} segment${info.segments === 1 ? '' : 's'}`;
  return (
    <div className="segment-counter" id={id} aria-live="polite">
      {parts} · {info.encoding} · {info.remaining} left
      {info.encoding === 'UCS-2' && text.length > 0 ? <span className="faint"> (a character outside GSM-7 makes every part shorter)</span> : null}
    </div>
  );
}
