// Uploads to the project's upload API with real progress, one file per request, through a
// headless Uppy (@uppy/core + @uppy/xhr-upload; none of its UI or CSS). Each request carries a
// content access key fetched just before it is sent (cached and renewed by contentAccess), so a
// long queue never sends an expired one. Cancel removes the file (aborting its request); retry
// sends a failed one again. Each file sent reads the library again (`onUploaded` comes after).
import Uppy, { type UppyFile } from '@uppy/core';
import XHRUpload from '@uppy/xhr-upload';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { contentAccess, projectPath } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { LibraryFile } from './get-files.ts';

type UploadMeta = { fileInfo?: string };
type UploadBody = Record<string, unknown>;
export type UploadItem = UppyFile<UploadMeta, UploadBody>;

export interface UploadState {
  id: string;
  name: string;
  /** 0–100 while sending; 100 once the server has answered. */
  percentage: number;
  status: 'waiting' | 'uploading' | 'done' | 'failed';
  error: string | null;
}

export interface Uploader {
  items: UploadState[];
  /** Queue files (into `folder` when given: a folder id or null for the root) and start sending them. */
  add(files: File[], folder?: number | null): void;
  cancel(id: string): void;
  retry(id: string): void;
  /** Forget the finished ones (sent or failed) from the list. */
  clearFinished(): void;
}

const QUIET = { debug() {}, warn() {}, error() {} };

/** The server's message from its error envelope, else the network's. */
function errorMessage(xhr: XMLHttpRequest | undefined, fallback: string): string {
  try {
    const message = (JSON.parse(xhr?.responseText ?? '') as { error?: { message?: string } }).error?.message;
    if (message) return message;
  } catch {
    // not JSON
  }
  return xhr && xhr.status === 0 ? 'The upload was interrupted (network error).' : fallback || 'The upload failed.';
}

function stateOf(file: UploadItem, errors: Record<string, string>): UploadState {
  const { progress } = file;
  const failed = Boolean(file.error);
  const status = failed ? 'failed' : progress.uploadComplete ? 'done' : progress.uploadStarted ? 'uploading' : 'waiting';
  return { id: file.id, name: file.name, percentage: Math.round(progress.percentage ?? 0), status, error: failed ? errors[file.id] ?? file.error ?? null : null };
}

/**
 * `endpointSearch` (e.g. `?id=12`) sends to `POST /api/upload{search}` (a replace); `onUploaded`
 * gets the files each answer holds.
 */
export function useUploader(slug: string, onUploaded: (files: LibraryFile[]) => void, endpointSearch = ''): Uploader {
  // Failures are shown next to each file; Uppy's own console logging is not wanted.
  const queryClient = useQueryClient();
  const [uppy] = useState(() => new Uppy<UploadMeta, UploadBody>({ autoProceed: false, allowMultipleUploadBatches: true, logger: QUIET }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The latest callback, without re-installing the plugin when it changes.
  const onUploadedRef = useLatest(onUploaded);

  useEffect(() => {
    uppy.use(XHRUpload<UploadMeta, UploadBody>, {
      endpoint: projectPath(slug, `/api/upload${endpointSearch}`),
      fieldName: 'files',
      formData: true,
      // One file per request: each has its own progress, cancel and retry.
      bundle: false,
      limit: 3,
      // Only `fileInfo`: the upload API refuses other fields (Uppy would send name and type).
      allowedMetaFields: ['fileInfo'],
      // A failed upload waits for the user's retry.
      shouldRetry: () => false,
      onBeforeRequest: async (xhr) => {
        xhr.setRequestHeader('authorization', `Bearer ${(await contentAccess(slug)).accessKey}`);
      },
    });
    const failed = (file: UploadItem | undefined, error: { message: string }, response?: unknown) => {
      if (file) setErrors((e) => ({ ...e, [file.id]: errorMessage(response as XMLHttpRequest | undefined, error.message) }));
    };
    const succeeded = (_file: UploadItem | undefined, response: { body?: UploadBody }) => {
      const body = response.body as unknown;
      void queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'media') });
      onUploadedRef.current(Array.isArray(body) ? (body as LibraryFile[]) : body ? [body as LibraryFile] : []);
    };
    uppy.on('upload-error', failed);
    uppy.on('upload-success', succeeded);
    return () => {
      uppy.off('upload-error', failed);
      uppy.off('upload-success', succeeded);
      uppy.cancelAll();
      const plugin = uppy.getPlugin('XHRUpload');
      if (plugin) uppy.removePlugin(plugin);
    };
  }, [uppy, slug, endpointSearch, queryClient]);

  const state = useSyncExternalStore(
    (notify) => {
      uppy.on('state-update', notify);
      return () => uppy.off('state-update', notify);
    },
    () => uppy.getState(),
  );
  const items = Object.values(state.files).map((f) => stateOf(f, errors));

  return {
    items,
    add(files, folder) {
      for (const file of files) {
        const meta: UploadMeta = folder === undefined ? {} : { fileInfo: JSON.stringify({ folder }) };
        try {
          uppy.addFile({ name: file.name, type: file.type, data: file, meta, source: 'dashboard' });
        } catch {
          // The same file again (Uppy refuses duplicates): drop the earlier, finished one and add it anew.
          const earlier = Object.values(uppy.getState().files).find((f) => f.name === file.name && f.size === file.size);
          if (earlier && (earlier.progress.uploadComplete || earlier.error)) {
            uppy.removeFile(earlier.id);
            uppy.addFile({ name: file.name, type: file.type, data: file, meta, source: 'dashboard' });
          }
        }
      }
      void uppy.upload().catch(() => {});
    },
    cancel(id) {
      uppy.removeFile(id);
    },
    retry(id) {
      setErrors(({ [id]: _dropped, ...rest }) => rest);
      void uppy.retryUpload(id).catch(() => {});
    },
    clearFinished() {
      const finished = Object.values(uppy.getState().files).filter((f) => f.progress.uploadComplete || f.error);
      uppy.removeFiles(finished.map((f) => f.id));
    },
  };
}

function useLatest<T>(value: T): { current: T } {
  const [ref] = useState(() => ({ current: value }));
  ref.current = value;
  return ref;
}
