// One version read-only beside the current document, its changed fields highlighted (the diff
// against the current document), and Restore for members who may edit.
import { Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { AttributeSchema, Model } from '../../../model/schema.ts';
import { dateTimeSeconds } from '../../../dates.ts';
import { PageError, PageLoader } from '../../../components/PageState.tsx';
import { useChangesSince } from '../api/get-version-diff.ts';
import type { DroppedLink } from '../api/restore-version.ts';
import { compareRows, pathLabel, recordedAttributes, valueText, type CompareRow } from './compare-rows.ts';
import { RestoreVersion } from './RestoreVersion.tsx';
import { versionLabel, type NumberedVersion } from './VersionTimeline.tsx';

export function VersionCompare({ slug, model, item, canEdit, draftAndPublish, onRestored }: {
  slug: string; model: Model; item: NumberedVersion; canEdit: boolean; draftAndPublish: boolean; onRestored(dropped: DroppedLink[]): void;
}) {
  const { version, number } = item;
  const changes = useChangesSince(slug, version.id);
  const label = versionLabel(number);
  const attributes = recordedAttributes(model.contentTypes[version.contentType]?.attributes ?? {}, version.schema as Record<string, AttributeSchema>);
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-start">
        <Stack gap={0}>
          <Title order={3} size="h4">{label}</Title>
          <Text size="sm" c="dimmed">{dateTimeSeconds(version.createdAt)}</Text>
        </Stack>
        {canEdit && <RestoreVersion slug={slug} version={version} label={label} draftAndPublish={draftAndPublish} onRestored={onRestored} />}
      </Group>
      {changes.isPending && <PageLoader label="Comparing with the current entry…" />}
      {changes.isError && <PageError error={changes.error} title="Could not compare this version" />}
      {changes.data && <CompareTable rows={compareRows(model, attributes, version.data, changes.data)} />}
    </Stack>
  );
}

function CompareTable({ rows }: { rows: CompareRow[] }) {
  const changed = rows.filter((r) => r.changed).length;
  return (
    <>
      <Text size="sm" role="status">
        {changed === 0 ? 'Same as the current entry.' : `${changed} ${changed === 1 ? 'field differs' : 'fields differ'} from the current entry.`}
      </Text>
      <Table aria-label="This version and the current entry" layout="fixed" verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="28%">Field</Table.Th><Table.Th>This version</Table.Th><Table.Th>Current</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.path} data-changed={row.changed || undefined} bg={row.changed ? 'yellow.0' : undefined}>
              <Table.Th scope="row" fw={row.changed ? 700 : 400}>
                {pathLabel(row.path)}
                {row.changed && <Badge ml={6} size="xs" variant="outline" color="dark">Changed</Badge>}
              </Table.Th>
              <Value text={valueText(row.version, row.attr)} />
              <Value text={valueText(row.current, row.attr)} />
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}

const Value = ({ text }: { text: string }) => (
  <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{text}</Table.Td>
);
