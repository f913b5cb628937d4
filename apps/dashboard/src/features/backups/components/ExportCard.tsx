// "Download an export": starts an export of the project, follows it while it is written, then
// offers its archive (Strapi's `strapi export --no-encrypt` layout) to download.
import { Alert, Button, Card, Code, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../components/PageState.tsx';
import { formatBytes } from '../../usage/components/format.ts';
import { dateTime } from '../../../dates.ts';
import { useCreateExport } from '../api/create-export.ts';
import { useExport } from '../api/get-export.ts';

export function ExportCard({ slug }: { slug: string }) {
  const [exportId, setExportId] = useState<string | null>(null);
  const start = useCreateExport(slug);
  const current = useExport(slug, exportId);
  const record = current.data;
  const running = start.isPending || (exportId !== null && (current.isPending || record?.status === 'running'));

  const begin = () => start.mutate(undefined, { onSuccess: (started) => setExportId(started.id) });

  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={3} size="h4">Export</Title>
        <Text size="sm">
          An export is one archive of the project: its content types, content, media files, locales, roles and end users, in the format of
          {' '}<Code>strapi export --no-encrypt</Code>. It loads into a self-hosted Strapi 5 with <Code>strapi import -f &lt;file&gt;</Code>, or
          into a new project here with <Code>cms import strapi --data &lt;file&gt;</Code>.
        </Text>
        {start.isError && <Alert color="red" role="alert">{errorMessage(start.error)}</Alert>}
        {current.isError && <Alert color="red" role="alert">{errorMessage(current.error)}</Alert>}
        {running && (
          <Group gap="sm" role="status" aria-live="polite">
            <Loader size="sm" aria-hidden />
            <Text size="sm">Preparing the export…</Text>
          </Group>
        )}
        {record?.status === 'failed' && (
          <Alert color="red" role="alert" title="The export failed">{record.error ?? 'The platform could not write the archive.'}</Alert>
        )}
        {record?.status === 'done' && record.url && (
          <Text size="sm" role="status">
            Ready: {record.size !== null && `${formatBytes(record.size)}, `}made {dateTime(record.finishedAt ?? record.createdAt)}.
          </Text>
        )}
        <Group gap="sm">
          {record?.status === 'done' && record.url && <Button component="a" href={record.url} download>Download the export</Button>}
          <Button variant={record?.status === 'done' ? 'default' : 'filled'} onClick={begin} loading={running}>
            {record?.status === 'done' ? 'Make a new export' : record?.status === 'failed' ? 'Try again' : 'Download an export'}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
