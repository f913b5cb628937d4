// JSON attributes as the editor shows them (pretty-printed) and reads them back. Pure.

/** The text for a stored value: nothing for null, two-space indented JSON otherwise. */
export function jsonText(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** The value of edited text: empty text is null; text that does not parse gives the parser's message. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
