/** A JSON value shown as text: a string as it is (wrapped), anything else pretty-printed. Never rendered as HTML. */
export function JsonView({ value }: { value: unknown }) {
  const text = typeof value === 'string' ? value : value === undefined ? '—' : JSON.stringify(value, null, 2);
  return <pre className={typeof value === 'string' ? 'json-view text' : 'json-view'}>{text}</pre>;
}
