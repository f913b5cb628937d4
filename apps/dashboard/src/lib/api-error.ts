// A refused call in the platform's error envelope (`{error: {name, message, details}}`), and how
// forms show it.

export interface FieldError {
  path: string[];
  message: string;
}

export class ApiError extends Error {
  constructor(readonly status: number, readonly errorName: string, message: string, readonly details: { errors?: FieldError[] } = {}) {
    super(message);
  }

  /** Field errors by their dotted path (for forms); empty when the error is not about fields. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of this.details.errors ?? []) {
      const key = e.path.join('.');
      if (key && !(key in out)) out[key] = e.message;
    }
    return out;
  }
}

/**
 * Show a failed call on a form: the API's field errors next to their fields when it names
 * any, anything else (with `fallback` for what is not an Error) as one message.
 */
export function reportFormError(err: unknown, setFieldErrors: (errors: Record<string, string>) => void, showMessage: (message: string) => void, fallback: string): void {
  const fields = err instanceof ApiError ? err.fieldErrors() : {};
  if (Object.keys(fields).length) setFieldErrors(fields);
  else showMessage(err instanceof Error ? err.message : fallback);
}

/** A fetch answer as JSON, or its error envelope as ApiError (calls outside `/v1`: the content API, uploads). */
export async function readAnswer<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: reported below
  }
  if (!res.ok) {
    const error = (json as { error?: { name?: string; message?: string; details?: { errors?: FieldError[] } } } | null)?.error;
    throw new ApiError(res.status, error?.name ?? 'Error', error?.message ?? `Request failed (${res.status})`, error?.details ?? {});
  }
  return json as T;
}
