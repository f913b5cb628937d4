// The blocks editor's rules on top of Slate's: which nodes are inline or void, the shapes Strapi's
// format allows (lists hold items and lists, items live in lists, links hold text), and what Enter
// and Backspace do in lists, headings, quotes and code.
import { Editor, Element, Node, Path, Point, Range, Text, Transforms } from 'slate';
import { UNKNOWN_BLOCK, UNKNOWN_INLINE } from './blocks.ts';
import { currentTextBlock, outdentItem, setBlockKind } from './blocks-commands.ts';
import './slate-types.ts';

export function withStrapiBlocks(editor: Editor): Editor {
  const { isInline, isVoid, normalizeNode, insertBreak, deleteBackward } = editor;

  editor.isInline = (el) => el.type === 'link' || el.type === UNKNOWN_INLINE || isInline(el);
  editor.isVoid = (el) => el.type === 'image' || el.type === UNKNOWN_BLOCK || el.type === UNKNOWN_INLINE || isVoid(el);

  editor.normalizeNode = (entry, options) => {
    const [node, path] = entry;
    if (Element.isElement(node) && node.type === 'list') {
      for (const [child, childPath] of Node.children(editor, path)) {
        if (Text.isText(child) || editor.isInline(child as Element)) {
          Transforms.wrapNodes(editor, { type: 'list-item', children: [] }, { at: childPath });
          return;
        }
        if (child.type !== 'list-item' && child.type !== 'list') {
          // A text block dropped into a list becomes an item; anything else moves out of it.
          if (child.type === 'paragraph' || child.type === 'heading' || child.type === 'quote' || child.type === 'code') {
            Transforms.unsetNodes(editor, ['level', 'language'], { at: childPath });
            Transforms.setNodes(editor, { type: 'list-item' }, { at: childPath });
          } else {
            Transforms.liftNodes(editor, { at: childPath });
          }
          return;
        }
      }
      // Adjacent lists of one format are one list.
      const next = Path.next(path);
      if (Node.has(editor, next)) {
        const sibling = Node.get(editor, next);
        if (Element.isElement(sibling) && sibling.type === 'list' && sibling.format === node.format) {
          Transforms.mergeNodes(editor, { at: next });
          return;
        }
      }
    }
    if (Element.isElement(node) && node.type === 'list-item') {
      const parent = Node.parent(editor, path);
      if (!Element.isElement(parent) || parent.type !== 'list') {
        Transforms.setNodes(editor, { type: 'paragraph' }, { at: path });
        return;
      }
    }
    if (Element.isElement(node) && node.type === 'link' && Node.string(node) === '') {
      // An emptied link would catch the next typed text.
      Transforms.unwrapNodes(editor, { at: path });
      return;
    }
    normalizeNode(entry, options);
  };

  editor.insertBreak = () => {
    const entry = currentTextBlock(editor);
    const selection = editor.selection;
    if (!entry || !selection) {
      // On an image (or another void block): a new paragraph after it.
      if (selection) {
        const top = selection.anchor.path[0]!;
        Transforms.insertNodes(editor, { type: 'paragraph', children: [{ text: '' }] }, { at: [top + 1], select: true });
        return;
      }
      insertBreak();
      return;
    }
    const [block, path] = entry;
    const empty = Node.string(block) === '' && block.children.length === 1;
    const atEnd = Range.isCollapsed(selection) && Point.equals(selection.anchor, Editor.end(editor, path));
    switch (block.type) {
      case 'code':
        // Lines of code are one block; Enter on an empty last line leaves it.
        if (atEnd && Node.string(block).endsWith('\n')) {
          editor.deleteBackward('character');
          Transforms.insertNodes(editor, { type: 'paragraph', children: [{ text: '' }] }, { at: Path.next(path), select: true });
        } else {
          editor.insertText('\n');
        }
        return;
      case 'list-item':
        // Enter on an empty item moves it out one level (out of the list: a paragraph).
        if (empty) {
          outdentItem(editor);
          return;
        }
        break;
      case 'heading':
        if (atEnd) {
          Transforms.insertNodes(editor, { type: 'paragraph', children: [{ text: '' }] }, { at: Path.next(path), select: true });
          return;
        }
        break;
      case 'quote':
        if (empty) {
          setBlockKind(editor, 'paragraph');
          return;
        }
        break;
    }
    insertBreak();
  };

  // Shift+Enter: a line break inside the block (Strapi keeps it as "\n" in the text).
  editor.insertSoftBreak = () => editor.insertText('\n');

  editor.deleteBackward = (unit) => {
    const selection = editor.selection;
    const entry = currentTextBlock(editor);
    if (selection && entry && Range.isCollapsed(selection) && entry[0].type !== 'paragraph' && Point.equals(selection.anchor, Editor.start(editor, entry[1]))) {
      // At the start of an item, heading, quote or code: back to a paragraph (items one level at a time).
      if (entry[0].type === 'list-item') outdentItem(editor);
      else setBlockKind(editor, 'paragraph');
      return;
    }
    deleteBackward(unit);
  };

  return editor;
}
