import { AppError } from '@switchboard/core';
import { asSentences, inlinePlainText, markdownToPlainText } from './plain-text.ts';

/** Largest README excerpt in get_project_status and document excerpt in get_all_tickets. */
export const DOCUMENT_CLIP = 3000;
/** Largest summary length in get_all_tickets. */
export const SUMMARY_CLIP = 200;
/** Number of recently updated tickets in get_project_status. */
export const RECENT_TICKETS = 5;

// Control characters (C0, DEL, C1): line breaks, tabs and the like.
const CONTROL = /\p{Cc}/u;

/** Whether a text holds a control character (a line break, a tab, …): names and titles are one line. */
export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/** Text cut to its first `max` characters, and whether it was cut. */
export function clip(text: string, max: number): { text: string; truncated: boolean } {
  // A string no longer in UTF-16 units than max has at most max code points: nothing to cut (the common case).
  if (text.length <= max) return { text, truncated: false };
  // Count code points as Array.from does (a surrogate pair is one; a lone surrogate is one), so a cut never splits a pair.
  let end = 0;
  for (let points = 0; points < max && end < text.length; points++) {
    const unit = text.charCodeAt(end);
    const pair = unit >= 0xd800 && unit <= 0xdbff && end + 1 < text.length && (text.charCodeAt(end + 1) & 0xfc00) === 0xdc00;
    end += pair ? 2 : 1;
  }
  return end >= text.length ? { text, truncated: false } : { text: text.slice(0, end), truncated: true };
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A URL slug made from a title: lower case, ASCII letters and digits joined by dashes. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return slug || 'page';
}

/** Validates a caller-chosen slug. */
export function validateSlug(raw: string): string {
  const slug = raw.trim().toLowerCase();
  if (!SLUG.test(slug) || slug.length > 80) {
    throw new AppError(
      'invalid_request',
      `Slug "${raw}" is invalid: use lower-case letters, digits and single dashes (e.g. getting-started), at most 80 characters.`,
    );
  }
  return slug;
}

/**
 * A summary made without a model: the title, then the first sentences of the description's prose (as plain text:
 * no Markdown syntax; code blocks, headings and tables left out) up to about 200 characters; a short one ends with
 * the latest comment.
 */
export function extractiveSummary(title: string, description: string, latestComment?: string): string {
  // Each block is a sentence of its own: a list item without a full stop does not run into the next.
  const prose = (text: string) => asSentences(markdownToPlainText(text, { prose: true }));
  const body = prose(description);
  const sentences = body.match(/[^.!?]+[.!?]+(?=\s|$)|[^.!?]+$/g) ?? [];
  let summary = inlinePlainText(title).replace(/[.!?]*$/, '.');
  for (const sentence of sentences) {
    const next = `${summary} ${sentence.trim()}`;
    if (next.length > SUMMARY_CLIP) break;
    summary = next;
  }
  if (summary.length < 120 && latestComment) {
    const comment = prose(latestComment);
    if (comment) summary = clip(`${summary} Latest: ${comment}`, SUMMARY_CLIP).text;
  }
  return clip(summary, SUMMARY_CLIP).text;
}
