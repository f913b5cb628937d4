// A project's locales as the i18n plugin's content API shows them (REST `/api/i18n/locales`,
// GraphQL `i18NLocale(s)`): documents with a stable documentId, built once per registry entry.
import { createHash } from 'node:crypto';
import type { TenantEntry } from './registry.ts';

export interface LocaleDocument {
  id: number;
  documentId: string;
  name: string;
  code: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
  isDefault: boolean;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Locales and roles have no row of their own in a project schema; derive a stable documentId
 * from the project, the kind and the item's key (a locale code, a role type).
 */
export function derivedDocumentId(projectId: number, kind: 'locale' | 'role', key: string): string {
  const h = createHash('sha256').update(`${projectId}:${kind}:${key}`).digest('hex');
  let id = ALPHABET[parseInt(h.slice(0, 2), 16) % 26]!;
  for (let i = 2; id.length < 24; i += 2) id += ALPHABET[parseInt(h.slice(i, i + 2), 16) % 36];
  return id;
}

const documents = new WeakMap<TenantEntry, readonly LocaleDocument[]>();

export function localeDocuments(tenant: TenantEntry): readonly LocaleDocument[] {
  let list = documents.get(tenant);
  if (!list) {
    list = Object.freeze(tenant.locales.map((l, i) => Object.freeze({
      id: i + 1, documentId: derivedDocumentId(tenant.project.id, 'locale', l.code), name: l.name, code: l.code,
      createdAt: l.createdAt, updatedAt: l.createdAt, publishedAt: l.createdAt, isDefault: l.isDefault,
    })));
    documents.set(tenant, list);
  }
  return list;
}
