// The error envelope the APIs answer with (`{ data: null, error: { status, name, message, details } }`).
export const envelope = (status: number, name: string, message: string, details: Record<string, unknown> = {}) =>
  ({ data: null, error: { status, name, message, details } });

/** A 400 on one field (`path` as the API names it). */
export const fieldError = (path: string[], message: string) => envelope(400, 'ValidationError', message, { errors: [{ path, message, name: 'ValidationError' }] });
export const unauthorized = (message = 'Missing or invalid credentials') => envelope(401, 'UnauthorizedError', message);
export const forbidden = (message = 'Forbidden') => envelope(403, 'ForbiddenError', message);
export const notFound = (message = 'Not Found') => envelope(404, 'NotFoundError', message);
