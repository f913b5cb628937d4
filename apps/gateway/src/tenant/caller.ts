// The caller of a content API request (access.ts decides who it is), resolved once per request by
// a `preHandler` hook of the routes that answer one — REST content reads and writes, GraphQL over
// HTTP, upload, users and their auth routes, live streams — and read by their handlers with
// `accessOf(request)`. Routes that never ask (uploaded files, locales, the project's OpenAPI
// document, GraphiQL, a PATCH's 405) have no hook and pay nothing.
//
// A refused credential is not answered by the hook: `accessOf` throws it where the handler first
// asks for its caller, so every route keeps the order of its answers (an unknown content type is
// 404 whatever the credential, as in Strapi; GraphQL's CSRF and malformed-query 400s come first).
//
// Callback style, synchronous for an anonymous caller or a dashboard key: no promise per request
// on the hot read path (a JWT or an API token is looked up, asynchronously).
import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import { telemetryState, traced } from '@cms/telemetry';
import { callerAccess, type Access, type CallerPlatform } from './access.ts';
import './request-context.ts';

/** The `preHandler` hook that resolves a request's caller (`request.access`, or `request.accessRefusal`). */
export function callerHook(platform: CallerPlatform): preHandlerHookHandler {
  return function resolveCaller(request, _reply, done) {
    resolveCallerThen(request, platform, done);
  };
}

/** The caller of this request, or its refusal thrown (401, 403 in the envelope). */
export function accessOf(request: FastifyRequest): Access {
  if (request.access !== null) return request.access;
  throw request.accessRefusal ?? new Error(`${request.routeOptions.url ?? request.url} reads its caller without callerHook`);
}

/**
 * A request running again on its reloaded project (tenant/index.ts) resolves its caller again:
 * its roles and tokens are the project's as it is now. Nothing for a route without a caller.
 */
export function refreshCaller(request: FastifyRequest, platform: CallerPlatform): Promise<void> | undefined {
  if (request.access === null && request.accessRefusal === null) return undefined;
  request.access = null;
  request.accessRefusal = null;
  return new Promise((resolve) => resolveCallerThen(request, platform, resolve));
}

function resolveCallerThen(request: FastifyRequest, platform: CallerPlatform, done: () => void): void {
  const admit = (access: Access) => {
    request.access = access;
    done();
  };
  const refuse = (err: unknown) => {
    request.accessRefusal = err;
    done();
  };
  // Every route with this hook sits under the tenant hook, which answered 404 without a project.
  const tenant = request.tenant!;
  if (telemetryState.tracing) {
    traced('auth', async () => callerAccess(request, tenant, platform)).then(admit, refuse);
    return;
  }
  let access: Access | Promise<Access>;
  try {
    access = callerAccess(request, tenant, platform);
  } catch (err) {
    return refuse(err);
  }
  if (access instanceof Promise) access.then(admit, refuse);
  else admit(access);
}
