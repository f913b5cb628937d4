// The editors other parts of the dashboard provide (blocks, Markdown, JSON, relations, media),
// gathered in one place for the content manager's fields.
export { BlocksEditor } from '../../fields/BlocksEditor.tsx';
export { JsonEditor } from '../../fields/JsonEditor.tsx';
export { MarkdownEditor } from '../../fields/MarkdownEditor.tsx';
export { RelationPicker, relationBody, type RelationItem } from '../../fields/RelationPicker.tsx';
export { MediaField, type MediaFile } from '../../media/MediaField.tsx';
