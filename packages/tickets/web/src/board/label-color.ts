/** A label colour usable in CSS: `#rgb`/`#rrggbb` or a plain colour name; anything else is grey. */
export function safeColor(color: string | null | undefined): string {
  if (color && (/^#[0-9a-fA-F]{3,8}$/.test(color) || /^[a-zA-Z]{3,20}$/.test(color))) return color;
  return '#8a8a96';
}
