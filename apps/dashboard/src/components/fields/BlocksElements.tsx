// How each blocks node looks inside the editor (semantic elements, so the editable reads like the
// rendered page to screen readers too).
import type { RenderElementProps, RenderLeafProps } from 'slate-react';
import { ReactEditor, useFocused, useSelected, useSlateStatic } from 'slate-react';
import { fileUrl } from '../../content-api.ts';
import type { ImageElement, ListElement } from './blocks.ts';
import classes from './BlocksEditor.module.css';
import './slate-types.ts';

export function BlocksElement({ slug, ...props }: RenderElementProps & { slug: string }) {
  const { attributes, children, element } = props;
  switch (element.type) {
    case 'heading': {
      const Tag = `h${element.level}` as const;
      return <Tag {...attributes}>{children}</Tag>;
    }
    case 'quote':
      return <blockquote {...attributes}>{children}</blockquote>;
    case 'code':
      return <pre {...attributes}><code>{children}</code></pre>;
    case 'list':
      return <List {...props} element={element} />;
    case 'list-item':
      return <li {...attributes}>{children}</li>;
    case 'link':
      return (
        <a {...attributes} href={element.url}>
          <Edge />{children}<Edge />
        </a>
      );
    case 'image':
      return <Image {...props} element={element} slug={slug} />;
    case 'unknown-block':
    case 'unknown-inline': {
      const Tag = element.type === 'unknown-block' ? 'div' : 'span';
      return (
        <Tag {...attributes}>
          <Unknown type={String(element.node.type)} />
          {children}
        </Tag>
      );
    }
    default:
      return <p {...attributes}>{children}</p>;
  }
}

/** A nested list sits in a list item of its own: <ol>/<ul> may only hold <li> elements. */
function List({ attributes, children, element }: RenderElementProps & { element: ListElement }) {
  const editor = useSlateStatic();
  const Tag = element.format === 'ordered' ? 'ol' : 'ul';
  const nested = ReactEditor.findPath(editor, element).length > 1;
  if (!nested) return <Tag {...attributes}>{children}</Tag>;
  return <li {...attributes} className={classes.nested}><Tag>{children}</Tag></li>;
}

function Image({ attributes, children, element, slug }: RenderElementProps & { element: ImageElement; slug: string }) {
  const selected = useSelectedInFocus();
  const image = element.image as { url?: unknown; alternativeText?: unknown; name?: unknown; formats?: Record<string, { url?: unknown }> | null };
  const src = image.formats?.small?.url ?? image.url;
  const alt = typeof image.alternativeText === 'string' && image.alternativeText ? image.alternativeText : typeof image.name === 'string' ? image.name : 'Image';
  return (
    <div {...attributes}>
      <div contentEditable={false} className={classes.image} data-selected={selected || undefined}>
        {typeof src === 'string' ? <img src={fileUrl(slug, src)} alt={alt} /> : <span className={classes.unknown}>Image without a URL</span>}
      </div>
      {children}
    </div>
  );
}

function Unknown({ type }: { type: string }) {
  const selected = useSelectedInFocus();
  return <span contentEditable={false} className={classes.unknown} data-selected={selected || undefined}>{type} (kept as it is)</span>;
}

/** A void node is shown selected only while the editor has the focus. */
function useSelectedInFocus(): boolean {
  const selected = useSelected();
  const focused = useFocused();
  return selected && focused;
}

/** Zero-width text at a link's edges, so the caret can be put just inside or outside it. */
function Edge() {
  return <span contentEditable={false} className={classes.edge}>{String.fromCodePoint(160)}</span>;
}

export function BlocksLeaf({ attributes, children, leaf }: RenderLeafProps) {
  let content = children;
  if (leaf.code) content = <code>{content}</code>;
  if (leaf.bold) content = <strong>{content}</strong>;
  if (leaf.italic) content = <em>{content}</em>;
  if (leaf.underline) content = <u>{content}</u>;
  if (leaf.strikethrough) content = <s>{content}</s>;
  return <span {...attributes}>{content}</span>;
}
