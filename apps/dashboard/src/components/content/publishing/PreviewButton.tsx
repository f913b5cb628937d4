// "Open preview": the content type's preview URL filled for this document, locale and status,
// opened in a new tab. A type without a URL template (the API answers 204) gets the button off,
// with a hint.
import { Button, Tooltip, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { api } from '../../../api.ts';
import { projectKey } from '../../../project.ts';
import type { EntryTarget } from './entry-target.ts';

export type PreviewStatus = 'draft' | 'published';

export function PreviewButton({ target, status }: { target: EntryTarget; status: PreviewStatus }) {
  const { slug, uid, documentId, locale } = target;
  const hintId = useId();
  const url = useQuery({
    queryKey: projectKey(slug, 'preview-url', uid, documentId, locale ?? '', status),
    queryFn: async () => {
      const query = new URLSearchParams({ contentType: uid, documentId, status, ...(locale ? { locale } : {}) });
      // 204 (no template for the type) reads as undefined.
      return (await api<{ data: { url: string } } | undefined>('GET', `/v1/projects/${slug}/preview-url?${query}`))?.data.url ?? null;
    },
  });
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
