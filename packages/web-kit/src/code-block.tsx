import { useState, type ReactNode } from 'react';
import { copyText } from './clipboard.ts';
import { Button } from './forms.tsx';

/** A copy button that says "Copied" for a moment; its accessible name stays **Copy** plus the optional `what`. */
export function CopyButton({ text, what, small = true }: { text: string; what?: string; small?: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      small={small}
      aria-label={what ? `Copy ${what}` : 'Copy'}
      onClick={async () => {
        await copyText(text);
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}

/** A block of code with a title and a **Copy** button. */
export function CodeBlock({ code, title, language }: { code: string; title?: string; language?: string }) {
  return (
    <figure className="code-block" style={{ margin: 0 }}>
      <figcaption className="code-title">
        <span>{title ?? language ?? ''}</span>
        <CopyButton text={code} what={title} />
      </figcaption>
      <pre>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/**
 * A value in a description list (`<dd>`) with its **Copy** button: an endpoint, a model name, an id. `before`
 * goes in front of the value (a method badge); `grow` lets a long value take the line.
 */
export function CopyLine({ text, what, before, grow = false }: { text: string; what: string; before?: ReactNode; grow?: boolean }) {
  return (
    <dd className="copy-line">
      {before}
      <code className={grow ? 'mono grow' : 'mono'}>{text}</code>
      <CopyButton text={text} what={what} />
    </dd>
  );
}
