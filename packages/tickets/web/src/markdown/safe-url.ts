/** Which link and image addresses rendered Markdown may keep: pure, so the rule is unit-tested without a browser. */

/**
 * Whether a URL is safe in rendered Markdown: http(s), mailto, a fragment or a
 * path on this site, or a `data:image/…` picture. Everything else (javascript:,
 * vbscript:, data:text/html, obfuscated forms with spaces or control characters
 * that browsers ignore) is dropped.
 */
export function isSafeUrl(url: string, kind: 'link' | 'image' = 'link'): boolean {
  // Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:").
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this removes, as browsers do.
  const compact = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  if (compact === '') return false;
  if (kind === 'image' && /^data:image\/(png|gif|jpe?g|webp);/.test(compact)) return true;
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(compact);
  // No scheme: a path, a query or a fragment on this site (a colon after a slash, ? or # is no scheme).
  if (!scheme) return true;
  return ['http', 'https', 'mailto'].includes(scheme[1]!);
}
