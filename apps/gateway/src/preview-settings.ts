// A project's preview settings (`settings.preview`, docs/preview.md): who may read drafts through
// the content API (`draftAccess`, enforced by the REST and GraphQL reads) and the preview URL
// template of each content type (filled by `GET /v1/projects/{slug}/preview-url`).
import { ValidationError, type FieldError } from '@cms/errors';
import type { DraftAccess } from '@cms/query';
import type { ContentType, Model } from '@cms/schema';

export interface PreviewSettings {
  /** `find`: Strapi's rule (whoever may find a type reads its drafts); `preview`: drafts need the type's `preview` action. */
  draftAccess: DraftAccess;
  /** content type uid → URL template */
  urls: Record<string, string>;
}

export const DEFAULT_PREVIEW_SETTINGS: Readonly<PreviewSettings> = Object.freeze({ draftAccess: 'find', urls: Object.freeze({}) as Record<string, string> });

export const PREVIEW_PLACEHOLDERS = ['type', 'uid', 'documentId', 'locale', 'status'] as const;
type Placeholder = (typeof PREVIEW_PLACEHOLDERS)[number];
const DRAFT_ACCESS: readonly DraftAccess[] = ['find', 'preview'];
export const MAX_TEMPLATE_LENGTH = 2048;

const PLACEHOLDER = /\{([^{}]*)\}/g;

// Effective settings per stored settings object (one per registry entry, replaced when a change
// invalidates the project on every gateway): a read does not merge them again.
const effective = new WeakMap<object, Readonly<PreviewSettings>>();

/** Stored project settings → effective preview settings (stored values were validated by `parsePreviewSettings`). */
export function previewSettingsOf(projectSettings: Record<string, unknown> | undefined): Readonly<PreviewSettings> {
  if (!projectSettings) return DEFAULT_PREVIEW_SETTINGS;
  let settings = effective.get(projectSettings);
  if (!settings) {
    const stored = projectSettings.preview;
    settings = stored && typeof stored === 'object' ? Object.freeze({ ...DEFAULT_PREVIEW_SETTINGS, ...(stored as Partial<PreviewSettings>) }) : DEFAULT_PREVIEW_SETTINGS;
    effective.set(projectSettings, settings);
  }
  return settings;
}

/** Why a template is refused, or null: an http(s) URL using only the known placeholders. */
function templateProblem(template: string): string | null {
  if (template.length === 0 || template.length > MAX_TEMPLATE_LENGTH) return `must be a URL of 1 to ${MAX_TEMPLATE_LENGTH} characters`;
  if (/[\s\p{Cc}]/u.test(template)) return 'must not contain spaces or control characters';
  const unknown = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !(PREVIEW_PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length > 0) return `has an unknown placeholder {${unknown[0]!.slice(0, 50)}} (allowed: ${PREVIEW_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')})`;
  // Every placeholder filled with a plain value: what is left must be an absolute http(s) URL.
  const sample = template.replace(PLACEHOLDER, 'x');
  if (/[{}]/.test(sample)) return 'has an unclosed { or a stray }';
  let url: URL;
  try {
    url = new URL(sample);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return 'must be an absolute http or https URL';
  return null;
}

/** An update (`draftAccess`, `urls`: either or both) over `current`, or a ValidationError naming every bad key and template. */
export function parsePreviewSettings(body: unknown, current: Readonly<PreviewSettings>, model: Model): PreviewSettings {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('Preview settings must be an object');
  const next: PreviewSettings = { draftAccess: current.draftAccess, urls: { ...current.urls } };
  const errors: FieldError[] = [];
  const fail = (path: string[], message: string) => errors.push({ path, message, name: 'ValidationError' });
  for (const [key, value] of Object.entries(body)) {
    if (key === 'draftAccess') {
      if ((DRAFT_ACCESS as readonly unknown[]).includes(value)) next.draftAccess = value as DraftAccess;
      else fail([key], `draftAccess must be one of ${DRAFT_ACCESS.map((d) => `"${d}"`).join(', ')}`);
    } else if (key === 'urls') {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        fail([key], 'urls must be an object of content type uid → URL template');
        continue;
      }
      // The map replaces the stored one: a type left out has no preview any more.
      const urls: Record<string, string> = {};
      for (const [uid, template] of Object.entries(value as Record<string, unknown>)) {
        if (!Object.hasOwn(model.contentTypes, uid)) fail([key, uid.slice(0, 200)], `${uid.slice(0, 200)} is not a content type of this project`);
        else if (typeof template !== 'string') fail([key, uid], `The template of ${uid} must be a string`);
        else {
          const problem = templateProblem(template);
          if (problem) fail([key, uid], `The template of ${uid} ${problem}`);
          else urls[uid] = template;
        }
      }
      next.urls = urls;
    } else {
      fail([key.slice(0, 100)], `${key.slice(0, 100)} is not a valid key`);
    }
  }
  if (errors.length > 0) throw ValidationError.fromFieldErrors(errors.slice(0, 100));
  return next;
}

export interface PreviewTarget {
  documentId: string;
  locale: string;
  status: 'draft' | 'published';
}

/** A (validated) template filled for one document: each value URL-encoded, `{type}` the type's singularName. */
export function fillPreviewUrl(template: string, type: ContentType, target: PreviewTarget): string {
  const values: Record<Placeholder, string> = { type: type.singularName, uid: type.uid, ...target };
  return template.replace(PLACEHOLDER, (_, name: string) => encodeURIComponent(values[name as Placeholder]));
}
