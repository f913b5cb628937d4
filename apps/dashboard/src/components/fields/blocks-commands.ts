// What the blocks toolbar and shortcuts do to the Slate editor: marks, block types, lists (with
// nesting), links and images. Each command works on the current selection.
import { Editor, Element, Node, Path, Range, Transforms, type NodeEntry } from 'slate';
import {
  TEXT_BLOCKS, headingLevel, type BlockElement, type ImageElement, type LinkElement, type ListElement, type ListFormat, type Mark,
} from './blocks.ts';
import './slate-types.ts';

/** What the block type select shows and sets. */
export type BlockKind = 'paragraph' | 'heading-1' | 'heading-2' | 'heading-3' | 'heading-4' | 'heading-5' | 'heading-6' | 'quote' | 'code';

const isList = (n: unknown): n is ListElement => Element.isElement(n) && n.type === 'list';
const isLink = (n: unknown): n is LinkElement => Element.isElement(n) && n.type === 'link';
const isTextBlock = (n: unknown): n is BlockElement => Element.isElement(n) && TEXT_BLOCKS.has(n.type);

/** Commands need a place to act on: without a selection, the end of the document. */
export function ensureSelection(editor: Editor): void {
  if (!editor.selection) Transforms.select(editor, Editor.end(editor, []));
}

export function isMarkActive(editor: Editor, mark: Mark): boolean {
  return Editor.marks(editor)?.[mark] === true;
}

export function toggleMark(editor: Editor, mark: Mark): void {
  ensureSelection(editor);
  if (isMarkActive(editor, mark)) Editor.removeMark(editor, mark);
  else Editor.addMark(editor, mark, true);
}

/** The text block holding the selection's start (the item, for lists). */
export function currentTextBlock(editor: Editor): NodeEntry<BlockElement> | undefined {
  if (!editor.selection) return undefined;
  return Editor.above(editor, { at: Range.start(editor.selection), match: isTextBlock, mode: 'lowest' }) as NodeEntry<BlockElement> | undefined;
}

/** The innermost list around the selection's start. */
export function currentList(editor: Editor): NodeEntry<ListElement> | undefined {
  if (!editor.selection) return undefined;
  return Editor.above(editor, { at: Range.start(editor.selection), match: isList, mode: 'lowest' }) as NodeEntry<ListElement> | undefined;
}

/** The block type of the selection (a paragraph without one); null inside a list (its buttons say which). */
export function currentBlockKind(editor: Editor): BlockKind | null {
  const [block] = currentTextBlock(editor) ?? [];
  if (!block) return 'paragraph';
  if (block.type === 'heading') return `heading-${block.level}`;
  return block.type === 'paragraph' || block.type === 'quote' || block.type === 'code' ? block.type : null;
}

/** Takes the selected items out of every list around them (they become top-level blocks). */
function leaveLists(editor: Editor): void {
  const inList = () => !Editor.nodes(editor, { match: isList }).next().done;
  // One level per pass: nested lists need as many passes as they are deep.
  for (let depth = 0; depth < 20 && inList(); depth++) {
    Transforms.unwrapNodes(editor, { match: isList, split: true, mode: 'lowest' });
  }
}

export function setBlockKind(editor: Editor, kind: BlockKind): void {
  ensureSelection(editor);
  Editor.withoutNormalizing(editor, () => {
    leaveLists(editor);
    Transforms.unsetNodes(editor, ['level', 'language'], { match: isTextBlock });
    const props: Partial<BlockElement> = kind.startsWith('heading-')
      ? { type: 'heading', level: headingLevel(kind.slice('heading-'.length)) }
      : { type: kind as 'paragraph' | 'quote' | 'code' };
    Transforms.setNodes(editor, props, { match: isTextBlock });
  });
}

export function isListActive(editor: Editor, format: ListFormat): boolean {
  return currentList(editor)?.[0].format === format;
}

/** A list of this format around the selected blocks; off again when they are in one already. */
export function toggleList(editor: Editor, format: ListFormat): void {
  ensureSelection(editor);
  const list = currentList(editor);
  if (list && list[0].format === format) {
    setBlockKind(editor, 'paragraph');
    return;
  }
  if (list) {
    Transforms.setNodes(editor, { format }, { at: list[1] });
    return;
  }
  Editor.withoutNormalizing(editor, () => {
    Transforms.unsetNodes(editor, ['level', 'language'], { match: isTextBlock });
    Transforms.setNodes(editor, { type: 'list-item' }, { match: isTextBlock });
    Transforms.wrapNodes(editor, { type: 'list', format, children: [] }, { match: (n) => Element.isElement(n) && n.type === 'list-item' });
  });
}

/** The list item holding the selection, when there is one. */
function currentItem(editor: Editor): NodeEntry<BlockElement> | undefined {
  const entry = currentTextBlock(editor);
  return entry && entry[0].type === 'list-item' ? entry : undefined;
}

/** Nests the item under the one before it; false when it cannot be (the first item). */
export function indentItem(editor: Editor): boolean {
  const item = currentItem(editor);
  if (!item) return false;
  const [, path] = item;
  if (path[path.length - 1] === 0) return false;
  const [parent] = Editor.parent(editor, path) as NodeEntry<ListElement>;
  const prevPath = Path.previous(path);
  const prev = Node.get(editor, prevPath);
  if (isList(prev)) {
    Transforms.moveNodes(editor, { at: path, to: [...prevPath, prev.children.length] });
  } else {
    // Strapi's editor marks nested lists with their depth.
    Transforms.wrapNodes(editor, { type: 'list', format: parent.format, indentLevel: (parent.indentLevel ?? 0) + 1, children: [] }, { at: path });
  }
  return true;
}

/** Moves the item one level out (out of the list altogether: a paragraph); false outside lists. */
export function outdentItem(editor: Editor): boolean {
  const item = currentItem(editor);
  if (!item) return false;
  Transforms.liftNodes(editor, { at: item[1] });
  return true;
}

export function isNestedItem(editor: Editor): boolean {
  const item = currentItem(editor);
  return !!item && item[1].length > 2;
}

export function activeLink(editor: Editor): NodeEntry<LinkElement> | undefined {
  if (!editor.selection) return undefined;
  const [entry] = Editor.nodes(editor, { match: isLink });
  return entry as NodeEntry<LinkElement> | undefined;
}

/** Links the selected text (or updates the link the caret is in; with no text selected, inserts the URL as text). */
export function setLink(editor: Editor, url: string): void {
  ensureSelection(editor);
  const selection = editor.selection!;
  const link = activeLink(editor);
  if (link && Range.isCollapsed(selection)) {
    Transforms.setNodes(editor, { url }, { at: link[1] });
    return;
  }
  if (link) Transforms.unwrapNodes(editor, { match: isLink });
  if (Range.isCollapsed(selection)) {
    Transforms.insertNodes(editor, { type: 'link', url, children: [{ text: url }] });
    // Typing goes on after the link, not inside it.
    Transforms.move(editor, { unit: 'offset' });
  } else {
    Transforms.wrapNodes(editor, { type: 'link', url, children: [] }, { split: true });
    Transforms.collapse(editor, { edge: 'end' });
  }
}

export function removeLink(editor: Editor): void {
  Transforms.unwrapNodes(editor, { match: isLink });
}

/** An image block after the selected block (instead of it, when that is an empty paragraph). */
export function insertImage(editor: Editor, image: ImageElement['image']): void {
  ensureSelection(editor);
  const top = editor.selection!.anchor.path[0] ?? 0;
  const block = editor.children[top];
  const replace = Element.isElement(block) && block.type === 'paragraph' && Node.string(block) === '' && block.children.length === 1;
  const at = replace ? [top] : [top + 1];
  Editor.withoutNormalizing(editor, () => {
    if (replace) Transforms.removeNodes(editor, { at: [top] });
    Transforms.insertNodes(editor, { type: 'image', image, children: [{ text: '' }] }, { at });
    // Somewhere to go on typing after an image that ends the document.
    if (at[0] === editor.children.length - 1) Transforms.insertNodes(editor, { type: 'paragraph', children: [{ text: '' }] }, { at: [at[0]! + 1] });
  });
  Transforms.select(editor, Editor.start(editor, [at[0]! + 1]));
}
