// A project's front page: its API addresses, copy-ready calls and the first steps.
import { Card, Group, List, SimpleGrid, Stack, Tabs, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { useParams } from 'react-router';
import { CodeBlock } from '../components/CodeBlock.tsx';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { useApiTokens } from '../features/api-tokens/api/get-api-tokens.ts';
import { useProject } from '../features/projects/api/get-project.ts';
import { useSchema } from '../features/schema/api/get-schema.ts';
import { useUsage } from '../features/usage/api/get-usage.ts';
import { snippets } from '../snippets.ts';

export const TOKEN_PLACEHOLDER = 'YOUR_API_TOKEN';

function useProjectFacts(slug: string) {
  const schema = useSchema(slug);
  const tokens = useApiTokens(slug);
  const usage = useUsage(slug);
  return { schema, tokens, usage };
}

function Address({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed">{label}</Text>
      <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }} data-testid={label}>{value}</Text>
    </Stack>
  );
}

export function ProjectOverview() {
  const { slug = '' } = useParams();
  const project = useProject(slug);
  const { schema, tokens, usage } = useProjectFacts(slug);
  if (project.isPending) return <PageLoader label="Loading project…" />;
  if (project.isError) return <PageError error={project.error} title="Could not load the project" />;
  const p = project.data;
  const types = Object.values(schema.data?.contentTypes ?? {});
  const collection = types.find((t) => t.kind === 'collectionType');
  const plural = collection?.info.pluralName ?? 'articles';
  const hasToken = (tokens.data?.length ?? 0) > 0;
  const steps = [
    { label: 'Model a content type', done: types.length > 0 },
    { label: 'Add content', done: (usage.data?.documents ?? 0) > 0 },
    { label: 'Create an API token', done: hasToken },
    { label: 'Call the API', done: (usage.data?.requests ?? 0) > 0 },
  ];
  const calls = snippets({ apiUrl: p.apiUrl, graphqlUrl: p.graphqlUrl, plural, token: hasToken ? TOKEN_PLACEHOLDER : null });
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">API addresses</Title>
          <Stack>
            <Address label="REST" value={p.apiUrl} />
            <Address label="GraphQL" value={p.graphqlUrl} />
          </Stack>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">First steps</Title>
          {schema.isPending || tokens.isPending || usage.isPending ? <PageLoader label="Checking progress…" /> : (
            <List spacing="xs" aria-label="First steps">
              {steps.map((s) => (
                <List.Item
                  key={s.label} data-done={s.done}
                  icon={<ThemeIcon color={s.done ? 'teal' : 'gray'} variant={s.done ? 'filled' : 'light'} size={22} radius="xl" aria-hidden>{s.done ? '✓' : '·'}</ThemeIcon>}
                >
                  {s.label} <VisuallyHidden>{s.done ? '(done)' : '(to do)'}</VisuallyHidden>
                </List.Item>
              ))}
            </List>
          )}
        </Card>
      </SimpleGrid>
      <Card withBorder>
        <Title order={2} size="h4" mb="xs">Call your API</Title>
        <Text size="sm" c="dimmed" mb="sm">
          {collection ? `Lists the ${collection.info.displayName ?? plural} documents.` : 'Once you model a collection type, replace "articles" with its plural name.'}{' '}
          {hasToken ? `Replace ${TOKEN_PLACEHOLDER} with one of your API tokens.` : 'Create an API token, or allow the public role to find, to get an answer.'}
        </Text>
        <Tabs defaultValue={calls[0]!.label}>
          <Tabs.List>
            {calls.map((c) => <Tabs.Tab key={c.label} value={c.label}>{c.label}</Tabs.Tab>)}
          </Tabs.List>
          {calls.map((c) => (
            <Tabs.Panel key={c.label} value={c.label} pt="sm">
              <CodeBlock code={c.code} label={c.label} />
            </Tabs.Panel>
          ))}
        </Tabs>
      </Card>
      <Group gap="xs">
        <Text size="sm" c="dimmed">Plan: {p.plan}</Text>
        <Text size="sm" c="dimmed">· Default locale: {p.defaultLocale}</Text>
      </Group>
    </Stack>
  );
}
