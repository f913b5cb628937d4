// The document-locale the editor's publishing buttons act on.
export interface EntryTarget {
  slug: string;
  /** the content type's uid */
  uid: string;
  documentId: string;
  /** localized types only */
  locale?: string;
}

/** `{locale}` for localized types, nothing otherwise (the API's default for the others). */
export const localeField = ({ locale }: EntryTarget) => (locale ? { locale } : {});
