// Checks on free text that is stored and shown back (project and locale names).

// C0/C1 control characters (NUL would even be refused by Postgres) and lone UTF-16 surrogates,
// which cannot be stored as UTF-8 and would silently turn into U+FFFD.
const UNSTORABLE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function hasControlCharacters(text: string): boolean {
  return UNSTORABLE.test(text);
}
