// Every error class has its own `code` for logs and metrics. Dashboards and alerts group by these
// strings, so they are pinned here: renaming or reusing one is a breaking change for operators.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as errors from '../src/index.ts';

const CODES: Record<string, string> = {
  AppError: 'CMS_ERROR',
  ValidationError: 'CMS_VALIDATION',
  SyntaxError_: 'CMS_SYNTAX',
  ApplicationError: 'CMS_APPLICATION',
  PaginationError: 'CMS_PAGINATION',
  UnauthorizedError: 'CMS_UNAUTHORIZED',
  ForbiddenError: 'CMS_FORBIDDEN',
  TwoFactorRequiredError: 'CMS_TWO_FACTOR_REQUIRED',
  TwoFactorSetupRequiredError: 'CMS_TWO_FACTOR_SETUP_REQUIRED',
  NotFoundError: 'CMS_NOT_FOUND',
  MethodNotAllowedError: 'CMS_METHOD_NOT_ALLOWED',
  PayloadTooLargeError: 'CMS_PAYLOAD_TOO_LARGE',
  UnsupportedMediaTypeError: 'CMS_UNSUPPORTED_MEDIA_TYPE',
  UriTooLongError: 'CMS_URI_TOO_LONG',
  RateLimitError: 'CMS_RATE_LIMIT',
  BadRequestError: 'CMS_BAD_REQUEST',
  RequestTimeoutError: 'CMS_REQUEST_TIMEOUT',
  RequestHeaderFieldsTooLargeError: 'CMS_HEADERS_TOO_LARGE',
  HttpVersionNotSupportedError: 'CMS_HTTP_VERSION_NOT_SUPPORTED',
  NotImplementedError: 'CMS_NOT_IMPLEMENTED',
  BadGatewayError: 'CMS_BAD_GATEWAY',
  ServiceUnavailableError: 'CMS_SERVICE_UNAVAILABLE',
  ProjectBusyError: 'CMS_PROJECT_BUSY',
  ClientClosedRequestError: 'CMS_CLIENT_CLOSED',
  InternalServerError: 'CMS_INTERNAL',
};

/** Every exported error class, by export name, with the code of an instance (defaults suffice). */
function exportedCodes(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(errors)) {
    if (typeof value !== 'function' || !(value === errors.AppError || value.prototype instanceof errors.AppError)) continue;
    out[name] = new (value as new () => errors.AppError)().code;
  }
  return out;
}

describe('error codes', () => {
  it('gives every exported error class its pinned code', () => {
    assert.deepEqual(exportedCodes(), CODES);
  });

  it('gives no two classes the same code, each CMS_ and upper snake case', () => {
    const codes = Object.values(exportedCodes());
    assert.equal(new Set(codes).size, codes.length);
    for (const code of codes) assert.match(code, /^CMS_[A-Z]+(_[A-Z]+)*$/);
  });

  it('keeps the code out of the envelope clients get', () => {
    assert.deepEqual(errors.toEnvelope(new errors.NotFoundError()), {
      data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} },
    });
  });

  it('lists every code in docs/operations.md', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../../docs/operations.md'), 'utf8');
    const documented = new Set([...doc.matchAll(/^\| `(CMS_[A-Z_]+)` \|/gm)].map((m) => m[1]));
    assert.deepEqual([...documented].sort(), Object.values(CODES).sort());
  });
});
