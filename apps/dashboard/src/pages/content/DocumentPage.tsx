// One document (a collection type's, new or stored, or a single type's) in one locale: reads its
// draft and status, switches locales, offers to create a missing locale version (filled in from
// another locale), and hands the form to the editor; beside History, the preview, release and
// schedule buttons, and the entry's scheduled actions under the heading.
import { Alert, Anchor, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageError, PageLoader } from '../../components/PageState.tsx';
import { useDocumentLocales } from '../../features/content/api/get-document-locales.ts';
import { useDraft } from '../../features/content/api/get-draft.ts';
import { usePublishedStamp } from '../../features/content/api/get-version-stamp.ts';
import type { VersionRef } from '../../features/content/api/version-ref.ts';
import { contentPath, localeSearch, type ContentEnv } from '../../features/content/components/content-env.ts';
import { hasDraftAndPublish, isLocalized, isSingleType, mainFieldOf, typeLabel, type ContentType } from '../../features/content/components/content-model.ts';
import { DocumentEditor } from '../../features/content/components/DocumentEditor.tsx';
import { emptyValues, valuesFromDocument, type Document } from '../../features/content/components/form-state.ts';
import { statusOf } from '../../features/content/components/list-query.ts';
import { LocaleSelect, localeName } from '../../features/content/components/LocaleSelect.tsx';
import type { EntryTarget } from '../../features/content/components/publishing/entry-target.ts';
import { PublishingButtons } from '../../features/content/components/publishing/PublishingButtons.tsx';
import { ScheduledActions } from '../../features/content/components/publishing/ScheduledActions.tsx';
import { StatusBadge } from '../../features/content/components/StatusBadge.tsx';
import type { SaveKind } from '../../features/content/components/use-save.ts';
import { HistoryPanel } from '../../features/history/components/HistoryPanel.tsx';

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
  const navigate = useNavigate();
  const single = isSingleType(type);
  const isNew = !single && !documentId;
  const localized = isLocalized(type);
  const dp = hasDraftAndPublish(type);
  const ref: VersionRef = { slug, type, documentId, locale };

  const draft = useDraft(model, ref, !isNew);
  const published = usePublishedStamp(ref, dp && Boolean(draft.data));
  const existing = useDocumentLocales(ref, locales.map((l) => l.code), localized && !isNew);
  const [start, setStart] = useState<Start>(null);
  const source = useDraft(model, { ...ref, locale: start ?? '' }, Boolean(start));

  const localeLabel = locale ? localeName(locales, locale) : '';
  const stored = draft.data ?? null;
  const listPath = `${contentPath(slug, type.uid)}${localeSearch(locale)}`;
  const switchLocale = (code: string) => navigate({ search: `?locale=${encodeURIComponent(code)}` });

  // The save has read the list and the document again.
  async function onSaved(doc: Document, kind: SaveKind) {
    notifications.show({ color: 'teal', message: kind === 'publish' ? 'Published' : 'Saved' });
    if (isNew) {
      navigate(`${contentPath(slug, type.uid, doc.documentId)}${localeSearch(locale)}`, { replace: true });
      return;
    }
    setStart(null);
  }
  // The delete has read the list (and a single type's document) again.
  function onDeleted() {
    notifications.show({ color: 'teal', message: 'Deleted' });
    if (!single) navigate(listPath);
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
              canEdit={env.canEdit} draftAndPublish={dp}
            />
          )}
          {localized && locale && <LocaleSelect locales={locales} value={locale} onChange={switchLocale} existing={isNew ? undefined : existing.data} />}
        </Group>
      </Group>
      {target && dp && <ScheduledActions target={target} canEdit={env.canEdit} />}
    </Stack>
  );

  if (draft.isPending && !isNew) return <Stack>{header}<PageLoader label="Loading the entry…" /></Stack>;
  if (draft.isError) return <Stack>{header}<PageError error={draft.error} title="Could not load the entry" /></Stack>;

  const editorProps = {
    model, readOnly: !env.canEdit, localeLabel, onSaved, onDeleted,
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
