// Strapi 5's `blocks` JSON ↔ the value the Slate editor edits. Pure (no React, no Slate): the
// editor's nodes are Strapi's nodes minus `type: 'text'` on text leaves (Slate merges and splits
// leaves by comparing their properties, so a constant one only gets in the way), plus two
// wrappers that carry node types the editor does not know through untouched.

export const MARKS = ['bold', 'italic', 'underline', 'strikethrough', 'code'] as const;
export type Mark = (typeof MARKS)[number];
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;
export type ListFormat = 'ordered' | 'unordered';

/** Wrappers of unknown nodes: kept whole (as Slate void elements) and written back as they came. */
export const UNKNOWN_BLOCK = 'unknown-block';
export const UNKNOWN_INLINE = 'unknown-inline';

export type SlateText = { text: string } & { [M in Mark]?: true };
export interface LinkElement { type: 'link'; url: string; children: SlateText[] }
export interface UnknownInlineElement { type: typeof UNKNOWN_INLINE; node: Record<string, unknown>; children: SlateText[] }
export type InlineNode = SlateText | LinkElement | UnknownInlineElement;

export interface ParagraphElement { type: 'paragraph'; children: InlineNode[] }
export interface HeadingElement { type: 'heading'; level: HeadingLevel; children: InlineNode[] }
export interface QuoteElement { type: 'quote'; children: InlineNode[] }
export interface CodeElement { type: 'code'; language?: string; children: InlineNode[] }
export interface ListItemElement { type: 'list-item'; children: InlineNode[] }
export interface ListElement { type: 'list'; format: ListFormat; indentLevel?: number; children: Array<ListItemElement | ListElement> }
/** `image`: the Strapi file object as stored in the blocks value. */
export interface ImageElement { type: 'image'; image: Record<string, unknown>; children: SlateText[] }
export interface UnknownBlockElement { type: typeof UNKNOWN_BLOCK; node: Record<string, unknown>; children: SlateText[] }

export type BlockElement =
  | ParagraphElement | HeadingElement | QuoteElement | CodeElement | ListElement | ListItemElement | ImageElement | UnknownBlockElement;
export type SlateElement = BlockElement | LinkElement | UnknownInlineElement;

/** Blocks whose children are text and links (what the block type select switches between). */
export const TEXT_BLOCKS = new Set(['paragraph', 'heading', 'quote', 'code', 'list-item']);

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);
const emptyText = (): SlateText => ({ text: '' });

/** Strapi's value of an empty blocks field. */
export const emptyBlocks = () => [{ type: 'paragraph', children: [{ type: 'text', text: '' }] }];

export function headingLevel(value: unknown): HeadingLevel {
  const n = Math.trunc(Number(value));
  return (n >= 1 && n <= 6 ? n : 1) as HeadingLevel;
}

// ---------------------------------------------------------------------------------------------
// Strapi → Slate

/** The editor's value for a stored blocks value; anything unusable becomes one empty paragraph. */
export function toSlate(value: unknown): BlockElement[] {
  const blocks = Array.isArray(value) ? groupInlines<BlockElement>(value, readBlock, (children) => ({ type: 'paragraph', children })) : [];
  return blocks.length > 0 ? blocks : [{ type: 'paragraph', children: [emptyText()] }];
}

const isInlineJson = (n: Dict) => n.type === 'text' || n.type === 'link' || (n.type === undefined && typeof n.text === 'string');

/** Reads a list of nodes; runs of inline nodes (where blocks belong) are wrapped by `wrap`. */
function groupInlines<T>(nodes: unknown[], read: (n: Dict) => T[], wrap: (children: InlineNode[]) => T): T[] {
  const out: T[] = [];
  let run: InlineNode[] = [];
  const flush = () => {
    if (run.length > 0) out.push(wrap(run));
    run = [];
  };
  for (const n of nodes) {
    if (!isDict(n)) continue;
    if (isInlineJson(n)) run.push(...readInline(n));
    else {
      flush();
      out.push(...read(n));
    }
  }
  flush();
  return out;
}

function readBlock(n: Dict): BlockElement[] {
  switch (n.type) {
    case 'paragraph': case 'quote':
      return [{ type: n.type, children: readInlines(n.children) }];
    case 'heading':
      return [{ type: 'heading', level: headingLevel(n.level), children: readInlines(n.children) }];
    case 'code':
      return [{ type: 'code', ...(typeof n.language === 'string' ? { language: n.language } : {}), children: readInlines(n.children) }];
    case 'list':
      return [readList(n)];
    case 'list-item':
      // An item outside a list: in a list of its own.
      return [{ type: 'list', format: 'unordered', children: [{ type: 'list-item', children: readInlines(n.children) }] }];
    case 'image':
      if (isDict(n.image)) return [{ type: 'image', image: n.image, children: [emptyText()] }];
      return [{ type: UNKNOWN_BLOCK, node: n, children: [emptyText()] }];
    default:
      return typeof n.type === 'string' ? [{ type: UNKNOWN_BLOCK, node: n, children: [emptyText()] }] : [];
  }
}

function readList(n: Dict): ListElement {
  const children = Array.isArray(n.children)
    ? groupInlines<ListItemElement | ListElement>(n.children, (c) => {
      if (c.type === 'list') return [readList(c)];
      // An item, or a block where an item belongs: its text becomes the item.
      return [{ type: 'list-item', children: readInlines(c.children) }];
    }, (inlines) => ({ type: 'list-item', children: inlines }))
    : [];
  return {
    type: 'list',
    format: n.format === 'ordered' ? 'ordered' : 'unordered',
    ...(typeof n.indentLevel === 'number' ? { indentLevel: n.indentLevel } : {}),
    children: children.length > 0 ? children : [{ type: 'list-item', children: [emptyText()] }],
  };
}

function readInlines(children: unknown): InlineNode[] {
  const out = Array.isArray(children) ? children.filter(isDict).flatMap(readInline) : [];
  return out.length > 0 ? out : [emptyText()];
}

function readInline(n: Dict): InlineNode[] {
  if (n.type === 'text' || (n.type === undefined && typeof n.text === 'string')) return [readText(n)];
  if (n.type === 'link') {
    // Links hold text only: a link inside a link gives its text.
    const texts = readInlines(n.children).flatMap((c) => ('text' in c ? [c] : 'type' in c && c.type === 'link' ? c.children : []));
    return [{ type: 'link', url: typeof n.url === 'string' ? n.url : '', children: texts.length > 0 ? texts : [emptyText()] }];
  }
  // A known block where text belongs gives its text; an unknown inline node is kept whole.
  if (typeof n.type === 'string' && n.type !== UNKNOWN_BLOCK && (TEXT_BLOCKS.has(n.type) || n.type === 'list')) return readInlines(n.children);
  if (typeof n.type === 'string') return [{ type: UNKNOWN_INLINE, node: n, children: [emptyText()] }];
  return [];
}

function readText(n: Dict): SlateText {
  const text: SlateText = { text: typeof n.text === 'string' ? n.text : '' };
  for (const mark of MARKS) if (n[mark] === true) text[mark] = true;
  return text;
}

// ---------------------------------------------------------------------------------------------
// Slate → Strapi

/** The stored blocks value of the editor's value: Strapi's properties only, in Strapi's shapes. */
export function fromSlate(nodes: readonly unknown[]): unknown[] {
  const out = nodes.filter(isDict).flatMap(writeBlock);
  return out.length > 0 ? out : emptyBlocks();
}

function writeBlock(n: Dict): Dict[] {
  switch (n.type) {
    case 'paragraph': case 'quote': case 'list-item':
      return [{ type: n.type, children: writeInlines(n.children) }];
    case 'heading':
      return [{ type: 'heading', level: headingLevel(n.level), children: writeInlines(n.children) }];
    case 'code':
      return [{ type: 'code', ...(typeof n.language === 'string' ? { language: n.language } : {}), children: writeInlines(n.children) }];
    case 'list':
      return [{
        type: 'list', format: n.format === 'ordered' ? 'ordered' : 'unordered',
        ...(typeof n.indentLevel === 'number' ? { indentLevel: n.indentLevel } : {}),
        children: (Array.isArray(n.children) ? n.children : []).filter(isDict).flatMap((c) =>
          c.type === 'list' ? writeBlock(c) : [{ type: 'list-item', children: writeInlines(c.children) }]),
      }];
    case 'image':
      return [{ type: 'image', image: n.image, children: [{ type: 'text', text: '' }] }];
    case UNKNOWN_BLOCK:
      return isDict(n.node) ? [n.node] : [];
    default:
      // Text where a block belongs (never produced by the editor's normalisation).
      return 'text' in n || n.type === 'link' ? [{ type: 'paragraph', children: writeInlines([n]) }] : [];
  }
}

function writeInlines(children: unknown): Dict[] {
  const out = (Array.isArray(children) ? children : []).filter(isDict).flatMap(writeInline);
  return out.length > 0 ? out : [{ type: 'text', text: '' }];
}

function writeInline(n: Dict): Dict[] {
  if (n.type === 'link') return [{ type: 'link', url: typeof n.url === 'string' ? n.url : '', children: writeInlines(n.children).filter((c) => c.type === 'text') }];
  if (n.type === UNKNOWN_INLINE) return isDict(n.node) ? [n.node] : [];
  if (typeof n.text !== 'string') return writeInlines(n.children);
  const text: Dict = { type: 'text', text: n.text };
  for (const mark of MARKS) if (n[mark] === true) text[mark] = true;
  return [text];
}
