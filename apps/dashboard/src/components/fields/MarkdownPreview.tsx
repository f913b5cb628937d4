// Markdown as it will read, rendered by react-markdown: raw HTML is dropped, unsafe link schemes
// are removed (react-markdown's default URL check), and only this site's images are loaded (the
// dashboard's CSP blocks others: they are shown as a link instead).
import { Anchor, Text, Typography } from '@mantine/core';
import ReactMarkdown, { type Components } from 'react-markdown';

const isLocal = (src: string) => /^(\/(?!\/)|data:image\/|blob:)/.test(src) || src.startsWith(`${window.location.origin}/`);

const components: Components = {
  a: ({ href, children }) => <Anchor href={href} target="_blank" rel="noopener noreferrer">{children}</Anchor>,
  img: ({ src, alt }) => {
    const url = typeof src === 'string' ? src : '';
    if (url && isLocal(url)) return <img src={url} alt={alt ?? ''} style={{ maxWidth: '100%' }} />;
    return <Anchor href={url || undefined} target="_blank" rel="noopener noreferrer">[Image: {alt || url || 'no address'}]</Anchor>;
  },
};

export function MarkdownPreview({ markdown }: { markdown: string }) {
  if (!markdown.trim()) return <Text size="sm" c="dimmed">Nothing to preview yet.</Text>;
  return (
    <Typography>
      <ReactMarkdown skipHtml components={components}>{markdown}</ReactMarkdown>
    </Typography>
  );
}
