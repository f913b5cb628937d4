// The URL of a link in the blocks editor: typed in a modal, checked before it is applied.
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';

/** Web, mail and phone links, and links within the site; never `javascript:` and the like. */
export function isSafeUrl(url: string): boolean {
  if (/^(\/|#|\?)/.test(url)) return true;
  return /^(https?:\/\/[^\s]+|mailto:[^\s]+|tel:[+\d][\d\s()-]*)$/i.test(url);
}

export function LinkModal({ opened, initialUrl, canRemove, onSave, onRemove, onClose }: {
  opened: boolean;
  initialUrl: string;
  /** the caret is in a link: offer to remove it */
  canRemove: boolean;
  onSave(url: string): void;
  onRemove(): void;
  onClose(): void;
}) {
  const [url, setUrl] = useState(initialUrl);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setUrl(initialUrl);
      setError(null);
    }
  }, [opened, initialUrl]);

  function submit(event: FormEvent) {
    event.preventDefault();
    // React events bubble through the modal's portal: the document form around must not submit.
    event.stopPropagation();
    // A bare domain is a web address.
    const value = /^[\w-]+(\.[\w-]+)+(\/|$)/.test(url.trim()) ? `https://${url.trim()}` : url.trim();
    if (!isSafeUrl(value)) {
      setError('Enter a web address (https://…), a mailto: or tel: link, or a path starting with /');
      return;
    }
    onSave(value);
  }

  // returnFocus off: the blocks editor takes the focus back itself.
  return (
    <Modal opened={opened} onClose={onClose} returnFocus={false} title={canRemove ? 'Edit link' : 'Add link'}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="URL" placeholder="https://example.com" value={url} error={error} data-autofocus
            onChange={(e) => setUrl(e.currentTarget.value)} autoComplete="off" required />
          <Group justify="space-between">
            {canRemove ? <Button variant="subtle" color="red" onClick={onRemove}>Remove link</Button> : <span />}
            <Group>
              <Button variant="default" onClick={onClose}>Cancel</Button>
              <Button type="submit">Save link</Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
