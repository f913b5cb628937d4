// The content manager: the project's collection and single types in a side list, and per type
// its list (collection types) or its form (single types), a new entry, or one entry's editor.
// Loaded on demand (React.lazy in App.tsx): the editors are the dashboard's heaviest code.
import { Anchor, Grid, NavLink, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { Link, Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { PageError, PageLoader } from '../../components/PageState.tsx';
import { contentPath, type ContentEnv } from '../../features/content/components/content-env.ts';
import { contentTypesOf, isSingleType, typeLabel, type ContentType } from '../../features/content/components/content-model.ts';
import { useLocales } from '../../features/locales/api/get-locales.ts';
import { useProject, useProjectRole } from '../../features/projects/api/get-project.ts';
import { useSchema } from '../../features/schema/api/get-schema.ts';
import { CollectionList } from './CollectionList.tsx';
import { DocumentPage } from './DocumentPage.tsx';

export function ContentManagerPage() {
  const { slug = '' } = useParams();
  const project = useProject(slug);
  const schema = useSchema(slug);
  const locales = useLocales(slug);
  const { canEdit } = useProjectRole(slug);
  const { pathname } = useLocation();
  if (schema.isPending || locales.isPending || project.isPending) return <PageLoader label="Loading content…" />;
  if (schema.isError) return <PageError error={schema.error} title="Could not load the model" />;
  if (locales.isError) return <PageError error={locales.error} title="Could not load the locales" />;
  if (project.isError) return <PageError error={project.error} />;

  const env: ContentEnv = { slug, model: schema.data, locales: locales.data, defaultLocale: project.data.defaultLocale, canEdit };
  const types = contentTypesOf(schema.data);
  if (!types.length) {
    return (
      <Stack>
        <Title order={2}>Content</Title>
        <Text>
          No content types yet. Create one in the <Anchor component={Link} to={`/projects/${slug}/model`}>Content-type builder</Anchor>, then add its entries here.
        </Text>
      </Stack>
    );
  }
  const group = (title: string, list: ContentType[]) => list.length > 0 && (
    <Stack gap={2}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" component="h2">{title}</Text>
      {list.map((t) => {
        const to = contentPath(slug, t.uid);
        return <NavLink key={t.uid} component={Link} to={to} label={typeLabel(t)} variant="filled" active={pathname === to || pathname.startsWith(`${to}/`)} />;
      })}
    </Stack>
  );
  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 3 }}>
        <Stack component="nav" aria-label="Content types" gap="md">
          {group('Collection types', types.filter((t) => !isSingleType(t)))}
          {group('Single types', types.filter(isSingleType))}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 9 }}>
        <Routes>
          <Route index element={<Navigate to={contentPath(slug, types[0]!.uid)} replace />} />
          <Route path=":uid" element={<TypeRoute env={env} />} />
          <Route path=":uid/new" element={<TypeRoute env={env} creating />} />
          <Route path=":uid/:documentId" element={<TypeRoute env={env} />} />
        </Routes>
      </Grid.Col>
    </Grid>
  );
}

/** A type's page: its list or single-type form, a new entry, or an entry. */
function TypeRoute({ env, creating = false }: { env: ContentEnv; creating?: boolean }) {
  const { uid = '', documentId } = useParams();
  const schema = env.model.contentTypes[uid];
  const type = useMemo<ContentType | null>(() => (schema ? { ...schema, uid } : null), [schema, uid]);
  if (!type) return <PageError error={new Error(`There is no content type ${uid}.`)} title="Unknown content type" />;
  if (isSingleType(type)) return documentId || creating ? <Navigate to={contentPath(env.slug, uid)} replace /> : <DocumentPage env={env} type={type} />;
  if (creating || documentId) return <DocumentPage key={documentId ?? 'new'} env={env} type={type} documentId={documentId} />;
  return <CollectionList key={uid} env={env} type={type} />;
}
