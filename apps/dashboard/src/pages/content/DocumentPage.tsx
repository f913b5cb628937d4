// One document (a collection type's, new or stored, or a single type's) in one locale: reads its
// draft and status, switches locales, offers to create a missing locale version (filled in from
// another locale), and hands the form to the editor; beside History, the preview, release and
// schedule buttons, and the entry's scheduled actions under the heading.
import { Alert, Anchor, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageError, PageLoader } from '../../components/PageState.tsx';
import { documentLocales, readDraft, readStamp, type VersionRef } from '../../components/content/actions.ts';
import { contentPath, localeSearch, type ContentEnv } from '../../components/content/content-env.ts';
import { hasDraftAndPublish, isLocalized, isSingleType, mainFieldOf, typeLabel, type ContentType } from '../../components/content/content-model.ts';
import { DocumentEditor } from '../../components/content/DocumentEditor.tsx';
import { emptyValues, valuesFromDocument, type Document } from '../../components/content/form-state.ts';
import { HistoryPanel } from '../../components/content/history/HistoryPanel.tsx';
import type { EntryTarget } from '../../components/content/publishing/entry-target.ts';
import { PublishingButtons } from '../../components/content/publishing/PublishingButtons.tsx';
import { ScheduledActions } from '../../components/content/publishing/ScheduledActions.tsx';
import { statusOf } from '../../components/content/list-query.ts';
import { LocaleSelect, localeName } from '../../components/content/LocaleSelect.tsx';
import { StatusBadge } from '../../components/content/StatusBadge.tsx';
import type { SaveKind } from '../../components/content/use-save.ts';

/** Where a new locale version starts from: another locale's version, or an empty form (''). */
type Start = string | null;

export function DocumentPage({ env, type, documentId }: { env: ContentEnv; type: ContentType; documentId?: string }) {
  const [search] = useSearchParams();
  const localized = isLocalized(type);
  const locale = localized ? search.get('locale') ?? env.defaultLocale : undefined;
  // A fresh page per locale: nothing typed in one locale leaks into another.
  return <LocaleVersion key={`${documentId ?? ''}:${locale ?? ''}`} env={env} type={type} documentId={documentId} locale={locale} />;
}

function LocaleVersion({ env, type, documentId, locale }: { env: ContentEnv; type: ContentType; documentId?: string; locale?: string }) {
  const { slug, model, locales } = env;
  const client = useQueryClient();
  const navigate = useNavigate();
  const single = isSingleType(type);
  const isNew = !single && !documentId;
  const localized = isLocalized(type);
  const dp = hasDraftAndPublish(type);
  const docKey = ['content-document', slug, type.uid, documentId ?? ''];
  const ref: VersionRef = { slug, type, documentId, locale };

  const draft = useQuery({ queryKey: [...docKey, locale ?? '', 'draft'], queryFn: () => readDraft(model, ref), enabled: !isNew, staleTime: Infinity });
  const published = useQuery({
    queryKey: [...docKey, locale ?? '', 'published'], queryFn: () => readStamp(ref, true), enabled: dp && Boolean(draft.data), staleTime: Infinity,
  });
  const existing = useQuery({
    queryKey: [...docKey, 'locales'], queryFn: () => documentLocales(ref, locales.map((l) => l.code)), enabled: localized && !isNew, staleTime: Infinity,
  });
  const [start, setStart] = useState<Start>(null);
  const source = useQuery({
    queryKey: [...docKey, start ?? '', 'draft'], queryFn: () => readDraft(model, { ...ref, locale: start! }), enabled: Boolean(start), staleTime: Infinity,
  });

  const localeLabel = locale ? localeName(locales, locale) : '';
  const stored = draft.data ?? null;
  const reload = () => client.invalidateQueries({ queryKey: docKey });
  const listPath = `${contentPath(slug, type.uid)}${localeSearch(locale)}`;
  const switchLocale = (code: string) => navigate({ search: `?locale=${encodeURIComponent(code)}` });

  async function onSaved(doc: Document, kind: SaveKind) {
    notifications.show({ color: 'teal', message: kind === 'publish' ? 'Published' : 'Saved' });
    void client.invalidateQueries({ queryKey: ['content-list', slug, type.uid] });
    if (isNew) {
      navigate(`${contentPath(slug, type.uid, doc.documentId)}${localeSearch(locale)}`, { replace: true });
      return;
    }
    setStart(null);
    // Single types get their documentId with their first save.
    await client.invalidateQueries({ queryKey: single ? ['content-document', slug, type.uid] : docKey });
  }
  async function onRestored() {
    void client.invalidateQueries({ queryKey: ['content-list', slug, type.uid] });
    await reload();
  }
  function onDeleted() {
    notifications.show({ color: 'teal', message: 'Deleted' });
    void client.invalidateQueries({ queryKey: ['content-list', slug, type.uid] });
    if (single) void client.invalidateQueries({ queryKey: ['content-document', slug, type.uid] });
    else navigate(listPath);
  }

  // The stored version the preview, release and schedule buttons act on.
  const target: EntryTarget | null = stored ? { slug, uid: type.uid, documentId: stored.documentId, locale } : null;
  const main = mainFieldOf(type);
  const heading = single ? typeLabel(type)
    : isNew ? `New ${typeLabel(type)} entry`
      : (main && stored && String(stored[main] ?? '').trim()) || (stored ? 'Untitled' : typeLabel(type));
  const header = (
    <Stack gap="xs">
      {!single && <Anchor component={Link} to={listPath} size="sm">Back to {typeLabel(type)}</Anchor>}
      <Group justify="space-between" align="flex-end">
        <Group gap="sm">
          <Title order={2}>{heading}</Title>
          {dp && stored && published.isSuccess && <StatusBadge status={statusOf(stored.updatedAt, published.data)} />}
        </Group>
        <Group gap="sm" align="flex-end">
          {target && <PublishingButtons target={target} draftAndPublish={dp} canEdit={env.canEdit} />}
          {stored && (
            <HistoryPanel
              target={{ slug, uid: type.uid, documentId: stored.documentId, locale: locale ?? null }} model={model}
              canEdit={env.canEdit} draftAndPublish={dp} onRestored={onRestored}
            />
          )}
          {localized && locale && <LocaleSelect locales={locales} value={locale} onChange={switchLocale} existing={isNew ? undefined : existing.data} />}
        </Group>
      </Group>
      {target && dp && <ScheduledActions target={target} canEdit={env.canEdit} onRan={reload} />}
    </Stack>
  );

  if (draft.isPending && !isNew) return <Stack>{header}<PageLoader label="Loading the entry…" /></Stack>;
  if (draft.isError) return <Stack>{header}<PageError error={draft.error} title="Could not load the entry" /></Stack>;

  const editorProps = {
    model, readOnly: !env.canEdit, localeLabel, onSaved, onReload: reload, onDeleted,
  };
  if (stored) {
    return (
      <Stack>
        {header}
        <DocumentEditor
          key={`${String(stored.id)}:${stored.updatedAt}`} {...editorProps}
          versionRef={{ ...ref, documentId: stored.documentId }}
          initialValues={valuesFromDocument(model, type.attributes, stored)} baseline={valuesFromDocument(model, type.attributes, stored)}
          loadedStamp={stored.updatedAt} status={dp && published.isSuccess ? statusOf(stored.updatedAt, published.data) : null}
        />
      </Stack>
    );
  }

  // No version in this locale (or a new document).
  const others = (existing.data ?? []).filter((code) => code !== locale);
  const missing = !isNew && !single && (!localized || (existing.isSuccess && others.length === 0));
  if (missing) {
    return <Stack>{header}<PageError error={new Error('This entry does not exist (it may have been deleted).')} title="Entry not found" /></Stack>;
  }
  if (!isNew && localized && start === null && (existing.isPending || others.length > 0)) {
    return (
      <Stack>
        {header}
        {existing.isPending ? <PageLoader /> : (
          <CreateLocalization
            localeLabel={localeLabel} options={others.map((code) => ({ value: code, label: localeName(locales, code) }))}
            canEdit={env.canEdit} onStart={setStart}
          />
        )}
      </Stack>
    );
  }
  if (start && source.isPending) return <Stack>{header}<PageLoader label="Loading the other locale…" /></Stack>;
  if (start && source.isError) return <Stack>{header}<PageError error={source.error} /></Stack>;
  const from = start && source.data ? source.data : null;
  // A single type's document may exist in other locales: its id goes with the new version.
  const knownId = documentId ?? from?.documentId;
  return (
    <Stack>
      {header}
      <DocumentEditor
        key={`new:${start ?? ''}`} {...editorProps}
        versionRef={{ ...ref, documentId: knownId }}
        initialValues={from ? valuesFromDocument(model, type.attributes, from) : emptyValues(model, type.attributes)} baseline={null}
        loadedStamp={null} status={null}
        notice={from
          ? <Alert color="blue" title={`New ${localeLabel} version`}>Filled in from {localeName(locales, start!)}. Change what differs, then save to create it.</Alert>
          : single && !isNew ? <Text size="sm" c="dimmed">{`${typeLabel(type)} has no content${localized ? ` in ${localeLabel}` : ''} yet.`}</Text> : undefined}
      />
    </Stack>
  );
}

function CreateLocalization({ localeLabel, options, canEdit, onStart }: {
  localeLabel: string; options: Array<{ value: string; label: string }>; canEdit: boolean; onStart(from: string): void;
}) {
  const [from, setFrom] = useState(options[0]?.value ?? '');
  return (
    <Alert color="blue" title={`No ${localeLabel} version yet`}>
      <Stack gap="sm">
        <Text size="sm">This entry exists in {options.map((o) => o.label).join(', ')}.</Text>
        {canEdit && (
          <Group align="flex-end">
            <Select label="Fill in from" data={options} value={from} onChange={(v) => v && setFrom(v)} allowDeselect={false} w={220} />
            <Button onClick={() => onStart(from)}>Create {localeLabel} version</Button>
            <Button variant="default" onClick={() => onStart('')}>Start from an empty form</Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
