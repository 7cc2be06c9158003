import { memo, useMemo } from 'react';
import { renderMarkdown } from './markdown.ts';

/** Rendered, sanitized Markdown; `empty` shows when there is no text. */
export const MarkdownView = memo(function MarkdownView({
  source,
  empty,
  className,
}: {
  source: string | null | undefined;
  empty?: string;
  className?: string;
}) {
  const html = useMemo(() => (source?.trim() ? renderMarkdown(source) : ''), [source]);
  if (!html) return <div className={`markdown empty faint ${className ?? ''}`}>{empty ?? 'Nothing here yet.'}</div>;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown's HTML is sanitized by DOMPurify, links and images through isSafeUrl (markdown.ts, unit-tested).
  return <div className={`markdown ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
});
