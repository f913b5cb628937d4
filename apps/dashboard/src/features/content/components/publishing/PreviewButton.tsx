// "Open preview": the content type's preview URL filled for this document, locale and status,
// opened in a new tab. A type without a URL template (the API answers 204) gets the button off,
// with a hint.
import { Button, Tooltip, VisuallyHidden } from '@mantine/core';
import { useId } from 'react';
import { usePreviewUrl } from '../../api/get-preview-url.ts';
import type { EntryTarget } from './entry-target.ts';

export type PreviewStatus = 'draft' | 'published';

export function PreviewButton({ target, status }: { target: EntryTarget; status: PreviewStatus }) {
  const { slug, uid, documentId, locale } = target;
  const hintId = useId();
  const url = usePreviewUrl({ slug, uid, documentId, locale, status });
  if (url.data) {
    return <Button component="a" href={url.data} target="_blank" rel="noopener noreferrer" variant="default">Open preview</Button>;
  }
  const hint = url.isError ? `The preview URL could not be read: ${url.error.message}`
    : url.isPending ? 'Reading the preview URL…' : 'This content type has no preview URL: set its template in the project’s preview settings.';
  // Focusable while off (data-disabled), so the hint can be read.
  return (
    <>
      <Tooltip label={hint} multiline w={260}>
        <Button variant="default" data-disabled aria-disabled aria-describedby={hintId} onClick={(e) => e.preventDefault()}>Open preview</Button>
      </Tooltip>
      <VisuallyHidden id={hintId}>{hint}</VisuallyHidden>
    </>
  );
}
