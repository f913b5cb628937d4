// The locale switcher of localized types: the project's locales, the ones a document lacks marked.
import { Select } from '@mantine/core';
import type { Locale } from '../../locales/api/get-locales.ts';

export const localeName = (locales: Locale[], code: string) => {
  const found = locales.find((l) => l.code === code);
  return found ? (found.name.includes(`(${code})`) ? found.name : `${found.name} (${code})`) : code;
};

export function LocaleSelect({ locales, value, onChange, existing }: {
  locales: Locale[]; value: string; onChange(code: string): void;
  /** the locales the document has a version in (absent: a list, every locale is there) */
  existing?: string[];
}) {
  const data = locales.map((l) => ({
    value: l.code, label: existing && !existing.includes(l.code) ? `${localeName(locales, l.code)}, not created yet` : localeName(locales, l.code),
  }));
  return <Select label="Locale" data={data} value={value} onChange={(v) => v && onChange(v)} allowDeselect={false} w={260} />;
}
