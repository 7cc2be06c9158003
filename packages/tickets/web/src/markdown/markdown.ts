/**
 * Markdown as HTML that is safe to put in the page: rendered with marked,
 * then sanitized with DOMPurify (no script, style or form, no event handler
 * attribute, no `javascript:` or other unsafe URL), links opened in a new tab.
 * Task list items (`- [ ]`, `- [x]`) become real checkboxes named by their
 * item's text: disabled, or (`tasks: 'toggle'`) carrying their source line.
 */
import DOMPurify from 'dompurify';
import { Marked, type Token, type Tokens } from 'marked';
import { inlinePlainText } from '../../../src/domain/plain-text.ts';
import { isSafeUrl } from './safe-url.ts';
import { taskItemLines } from './task-boxes.ts';

/** What a rendered checkbox knows: its place among the task items, its name, its source line (when toggling). */
interface TaskBox {
  index: number;
  label: string;
  line: number | undefined;
}

// The checkboxes of the render in progress (renders are synchronous), and the token that proves a checkbox in the
// output came from the renderer and not from HTML written in the text.
let boxes = new Map<Tokens.Checkbox, TaskBox>();
let nonce = '';

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    checkbox(token) {
      const box = boxes.get(token);
      if (!box) return '';
      const state = `${token.checked ? ' checked' : ''}${box.line === undefined ? ' disabled' : ` data-line="${box.line}"`}`;
      return `<input type="checkbox" class="task-box" data-task="${nonce}:${box.index}" aria-label="${escapeAttribute(box.label)}"${state}> `;
    },
  },
});

let hooked = false;
function installHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('uponSanitizeElement', (node, data) => {
    // Only the renderer's checkboxes: an <input> written as HTML in the text is dropped.
    if (data.tagName !== 'input') return;
    const element = node as Element;
    if (element.getAttribute('type') !== 'checkbox' || !element.getAttribute('data-task')?.startsWith(`${nonce}:`)) element.remove();
  });
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element;
    if (element.tagName === 'INPUT') element.setAttribute('data-task', element.getAttribute('data-task')!.slice(nonce.length + 1));
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

/** The task items of a token tree in document order, each with its checkbox token. */
function taskItems(tokens: readonly Token[], found: Array<{ item: Tokens.ListItem; box: Tokens.Checkbox }> = []) {
  for (const token of tokens) {
    if (token.type === 'list') {
      for (const item of (token as Tokens.List).items) {
        const first = item.tokens[0];
        const box = first?.type === 'checkbox' ? first : first && 'tokens' in first && first.tokens?.[0]?.type === 'checkbox' ? first.tokens[0] : undefined;
        if (item.task && box) found.push({ item, box: box as Tokens.Checkbox });
        taskItems(item.tokens, found);
      }
    } else if (token.type === 'blockquote') {
      taskItems((token as Tokens.Blockquote).tokens, found);
    }
  }
  return found;
}

/** How task list checkboxes render: disabled (`read`), or clickable with their source line (`toggle`). */
export interface RenderOptions {
  tasks?: 'read' | 'toggle';
}

/** The sanitized HTML of a Markdown text. */
export function renderMarkdown(markdown: string, options: RenderOptions = {}): string {
  installHooks();
  const source = markdown ?? '';
  const tokens = marked.lexer(source);
  const items = taskItems(tokens);
  const lines =
    options.tasks === 'toggle'
      ? taskItemLines(
          source,
          items.map(({ item }) => item.raw.split('\n')[0]!),
        )
      : [];
  boxes = new Map(items.map(({ item, box }, index) => [box, { index, label: inlinePlainText(item.text.split('\n')[0]!) || 'Task', line: lines[index] }]));
  nonce = Math.random().toString(36).slice(2);
  try {
    const html = marked.parser(tokens) as string;
    return DOMPurify.sanitize(html, {
      USE_PROFILES: { html: true },
      FORBID_TAGS: ['style', 'form', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
      FORBID_ATTR: ['style', 'srcset', 'formaction'],
      ADD_ATTR: ['target'],
    });
  } finally {
    boxes = new Map();
  }
}
