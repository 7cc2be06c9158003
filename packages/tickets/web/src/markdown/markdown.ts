/**
 * Markdown as HTML that is safe to put in the page: rendered with marked,
 * then sanitized with DOMPurify (no script, style or form, no event handler
 * attribute, no `javascript:` or other unsafe URL), links opened in a new tab.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { isSafeUrl } from './safe-url.ts';

const marked = new Marked({ gfm: true, breaks: true, async: false });

let hooked = false;
function installHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element;
    if (element.tagName === 'A') {
      const href = element.getAttribute('href');
      if (href !== null && !isSafeUrl(href, 'link')) element.removeAttribute('href');
      if (element.hasAttribute('href') && !element.getAttribute('href')!.startsWith('#')) {
        element.setAttribute('target', '_blank');
        element.setAttribute('rel', 'noopener noreferrer nofollow');
      }
    }
    if (element.tagName === 'IMG') {
      const src = element.getAttribute('src');
      if (src !== null && !isSafeUrl(src, 'image')) element.removeAttribute('src');
    }
  });
}

/** The sanitized HTML of a Markdown text. */
export function renderMarkdown(markdown: string): string {
  installHooks();
  const html = marked.parse(markdown ?? '') as string;
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
    FORBID_ATTR: ['style', 'srcset', 'formaction'],
    ADD_ATTR: ['target'],
  });
}
