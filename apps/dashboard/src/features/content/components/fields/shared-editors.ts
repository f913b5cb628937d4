// The editors other parts of the dashboard provide (blocks, Markdown, JSON, relations, media),
// gathered in one place for the content manager's fields.
export { BlocksEditor } from '../../../../components/fields/BlocksEditor.tsx';
export { JsonEditor } from '../../../../components/fields/JsonEditor.tsx';
export { MarkdownEditor } from '../../../../components/fields/MarkdownEditor.tsx';
export { RelationPicker, relationBody, type RelationItem } from '../../../../components/fields/RelationPicker.tsx';
export { MediaField, type MediaFile } from '../../../media/components/MediaField.tsx';
