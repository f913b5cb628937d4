// TypeScript declarations of a project's documents and components, as the v5 content API returns
// them (REST, default response format): `id`, `documentId`, timestamps, `locale` on localized
// types; relations, media, components and dynamic zones optional (absent unless populated);
// dynamic zones as unions discriminated by `__component`; blocks as Strapi's blocks nodes.
// Private and password attributes are left out (never returned).
import { parseModel, USERS_UID, type Attribute, type Component, type ContentType, type RawModel } from '@cms/schema';

/** Declarations emitted before the model's own, whatever it holds (their names are taken). */
const PRELUDE = `export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** An image format of a media file (\`thumbnail\`, \`small\`, \`medium\`, \`large\`). */
export interface MediaFormat {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: string | null;
  width: number;
  height: number;
  /** KB */
  size: number;
  sizeInBytes?: number;
  url: string;
}

/** A file of the media library, as a media attribute returns it. */
export type MediaFile = {
  id: number;
  documentId: string;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  focalPoint?: { x: number; y: number } | null;
  width: number | null;
  height: number | null;
  formats: Record<string, MediaFormat> | null;
  hash: string;
  ext: string;
  mime: string;
  /** KB */
  size: number;
  url: string;
  previewUrl: string | null;
  provider: string;
  provider_metadata: JsonValue | null;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
};

/** An end user of the project (users-permissions), as a relation to one returns it. */
export type UsersPermissionsUser = {
  id: number;
  documentId: string;
  username: string;
  email: string;
  provider: string;
  confirmed: boolean;
  blocked: boolean;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
};

// Strapi's blocks (rich text) nodes, as @strapi/blocks-react-renderer names them.
export type TextInlineNode = {
  type: 'text';
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
  code?: boolean;
};
export type LinkInlineNode = { type: 'link'; url: string; children: TextInlineNode[] };
export type ListItemInlineNode = { type: 'list-item'; children: DefaultInlineNode[] };
export type DefaultInlineNode = TextInlineNode | LinkInlineNode;
export type ParagraphBlockNode = { type: 'paragraph'; children: DefaultInlineNode[] };
export type QuoteBlockNode = { type: 'quote'; children: DefaultInlineNode[] };
export type CodeBlockNode = { type: 'code'; language?: string; children: DefaultInlineNode[] };
export type HeadingBlockNode = { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: DefaultInlineNode[] };
export type ListBlockNode = {
  type: 'list';
  format: 'ordered' | 'unordered';
  indentLevel?: number;
  children: Array<ListItemInlineNode | ListBlockNode>;
};
export type ImageBlockNode = {
  type: 'image';
  image: {
    name: string;
    alternativeText?: string | null;
    url: string;
    caption?: string | null;
    width: number;
    height: number;
    formats?: Record<string, unknown>;
    hash: string;
    ext: string;
    mime: string;
    size: number;
    previewUrl?: string | null;
    provider: string;
    provider_metadata?: unknown;
    createdAt: string;
    updatedAt: string;
  };
  children: [{ type: 'text'; text: '' }];
};
export type RootNode = ParagraphBlockNode | QuoteBlockNode | CodeBlockNode | HeadingBlockNode | ListBlockNode | ImageBlockNode;
/** The value of a \`blocks\` attribute. */
export type BlocksContent = RootNode[];

export interface Pagination {
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
}

/** \`GET /api/{pluralName}/{documentId}\`, \`GET /api/{singularName}\`, create and update. */
export interface DocumentResponse<T> {
  data: T;
  meta: Record<string, never>;
}

/** \`GET /api/{pluralName}\`. */
export interface DocumentResponseCollection<T> {
  data: T[];
  meta: { pagination: Pagination };
}
`;

const RESERVED = new Set([...PRELUDE.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]!)
  .concat(['ContentTypes', 'Components', 'CollectionTypes', 'SingleTypes']));

const pascal = (s: string) => s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const comment = (text: string) => `/** ${text.replace(/\*\//g, '*\\/')} */`;

/** Unique type names: content types by singular name, components by category and name. */
function typeNames(contentTypes: ContentType[], components: Component[]): Map<string, string> {
  const taken = new Set(RESERVED);
  const names = new Map<string, string>();
  const claim = (uid: string, wanted: string, fallback: string) => {
    let name = /^[A-Za-z]/.test(wanted) ? wanted : `T${wanted}`;
    if (taken.has(name)) name = fallback;
    for (let i = 2; taken.has(name); i++) name = `${fallback}${i}`;
    taken.add(name);
    names.set(uid, name);
  };
  for (const ct of contentTypes) claim(ct.uid, pascal(ct.singularName), `${pascal(ct.singularName)}Document`);
  for (const c of components) claim(c.uid, pascal(`${c.category}-${c.name}`), `Component${pascal(`${c.category}-${c.name}`)}`);
  return names;
}

export interface TypegenResult {
  source: string;
  contentTypes: number;
  components: number;
}

export function generateTypes(raw: RawModel, header: string): TypegenResult {
  const model = parseModel(raw);
  const contentTypes = Object.values(model.contentTypes);
  const components = Object.values(model.components);
  const names = typeNames(contentTypes, components);
  const nameOf = (uid: string) => (uid === USERS_UID ? 'UsersPermissionsUser' : names.get(uid)!);

  /** `name: type` of one attribute, or null when the API never returns it. */
  const field = (attr: Attribute): string | null => {
    const nullable = (t: string) => (attr.required ? t : `${t} | null`);
    switch (attr.kind) {
      case 'scalar':
        if (attr.private || attr.type === 'password') return null;
        switch (attr.type) {
          case 'integer': case 'float': case 'decimal': return `${key(attr.name)}: ${nullable('number')}`;
          case 'boolean': return `${key(attr.name)}: ${nullable('boolean')}`;
          case 'json': return `${key(attr.name)}: JsonValue`;
          case 'blocks': return `${key(attr.name)}: ${nullable('BlocksContent')}`;
          case 'enumeration': return `${key(attr.name)}: ${nullable((attr.enum ?? []).map((v) => JSON.stringify(v)).join(' | ') || 'never')}`;
          // biginteger is a string (beyond 2^53); date "YYYY-MM-DD", time "HH:mm:ss", datetime ISO.
          default: return `${key(attr.name)}: ${nullable('string')}`;
        }
      case 'media':
        if (attr.private) return null;
        return `${key(attr.name)}?: ${attr.multiple ? 'MediaFile[] | null' : 'MediaFile | null'}`;
      case 'relation':
        if (attr.private) return null;
        return `${key(attr.name)}?: ${attr.many ? `${nameOf(attr.target)}[]` : `${nameOf(attr.target)} | null`}`;
      case 'component':
        if (attr.private) return null;
        return `${key(attr.name)}?: ${attr.repeatable ? `${nameOf(attr.component)}[]` : `${nameOf(attr.component)} | null`}`;
      case 'dynamiczone': {
        if (attr.private) return null;
        const members = attr.components.map((uid) => `(${nameOf(uid)} & { __component: ${JSON.stringify(uid)} })`);
        return `${key(attr.name)}?: Array<${members.join(' | ') || 'never'}>`;
      }
    }
  };
  const fields = (attributes: Record<string, Attribute>) =>
    Object.values(attributes).map(field).filter((f): f is string => f !== null).map((f) => `  ${f};`);

  const out: string[] = [header, PRELUDE];
  for (const ct of contentTypes) {
    const name = names.get(ct.uid)!;
    out.push(comment(`${ct.displayName} (${ct.uid}): ${ct.kind === 'singleType' ? `GET /api/${ct.singularName}` : `GET /api/${ct.pluralName}`}`));
    out.push(`export type ${name} = {`, '  id: number;', '  documentId: string;', ...fields(ct.attributes),
      '  createdAt: string;', '  updatedAt: string;',
      `  ${comment(ct.draftAndPublish ? 'null for a draft' : 'set at creation (no draft & publish)')}`,
      ct.draftAndPublish ? '  publishedAt: string | null;' : '  publishedAt: string;',
      ...(ct.localized ? ['  locale: string;', `  localizations?: ${name}[];`] : []),
      '};', '');
  }
  for (const c of components) {
    out.push(comment(`${c.displayName} (component ${c.uid})`));
    out.push(`export type ${names.get(c.uid)!} = {`, '  id: number;', ...fields(c.attributes), '};', '');
  }
  /** A map from names to types, for looking a type up by what @strapi/client is called with. */
  const block = (name: string, title: string, entries: Array<[string, string]>) => {
    out.push(comment(title), `export interface ${name} {`, ...entries.map(([k, v]) => `  ${JSON.stringify(k)}: ${v};`), '}', '');
  };
  block('ContentTypes', 'Documents by content type uid.', contentTypes.map((ct) => [ct.uid, names.get(ct.uid)!]));
  block('Components', 'Components by uid (the `__component` of dynamic zone entries).', components.map((c) => [c.uid, names.get(c.uid)!]));
  block('CollectionTypes', 'Collection types by plural name: `client.collection(name)`.',
    contentTypes.filter((ct) => ct.kind === 'collectionType').map((ct) => [ct.pluralName, names.get(ct.uid)!]));
  block('SingleTypes', 'Single types by singular name: `client.single(name)`.',
    contentTypes.filter((ct) => ct.kind === 'singleType').map((ct) => [ct.singularName, names.get(ct.uid)!]));
  return { source: out.join('\n'), contentTypes: contentTypes.length, components: components.length };
}
