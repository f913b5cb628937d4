// GraphQL subscriptions (docs/graphql.md § Subscriptions): a WebSocket upgrade of a project's
// `/graphql` speaking graphql-transport-ws (the `graphql-ws` library's server). The caller is
// resolved like an HTTP request (tenant/access.ts): `connection_init`'s `authorization`, else the
// upgrade's `Authorization` header; a bad one closes the socket with 4403. Each `subscribe` is
// checked like an HTTP operation (depth, cost, introspection, variables; subscriptions only) on
// the project's current model and settings, with the caller's current permissions, and runs on
// graphql-js: each subscription field becomes a stream of the gateway's live hub
// (graphql-subscriber.ts), counted with the SSE streams toward the plan's limit.
import type { FastifyRequest } from 'fastify';
import type { WebsocketHandler } from '@fastify/websocket';
import { CloseCode, makeServer } from 'graphql-ws';
import type { WebSocket } from 'ws';
import { NotFoundError, normalizeError, RateLimitError } from '@cms/errors';
import { failedSubscription, formatExecutionError, graphqlSettingsOf, type LiveFeed } from '@cms/graphql';
import { liveHead } from '@cms/live';
import type { ProjectRuntime, TenantEntry } from '@cms/tenancy';
import type { Platform } from '../platform.ts';
import { resolveAccess } from '../tenant/access.ts';
import { graphqlContextOf } from '../tenant/graphql-route.ts';
import { acceptsOf } from './live-filter.ts';
import { liveStreamLimitOf } from './live-limits.ts';
import { GraphqlSubscriber, type SubscriptionSocket } from './graphql-subscriber.ts';

/** A socket's keep-alive: at most one ping per this many ms, however many subscriptions it carries. */
const PING_EVERY_MS = 5_000;

/** One connection's socket as its subscriptions use it: its backlog, closing, keep-alive. */
class Connection implements SubscriptionSocket {
  private pingedAt = 0;
  private answered = true;

  constructor(private readonly socket: WebSocket) {
    socket.on('pong', () => (this.answered = true));
  }

  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  close(code: number, reason: string): void {
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) this.socket.close(code, reason);
  }

  ping(): void {
    const now = Date.now();
    if (now - this.pingedAt < PING_EVERY_MS || this.socket.readyState !== this.socket.OPEN) return;
    // No pong since the last round: the client is gone without closing.
    if (!this.answered) return void this.socket.terminate();
    this.answered = false;
    this.pingedAt = now;
    this.socket.ping();
  }
}

interface Extra {
  socket: WebSocket;
  request: FastifyRequest;
  connection: Connection;
  /** The upgrade request with the connection's credential as its `Authorization` (set by `connection_init`). */
  caller?: FastifyRequest;
}

/** The request with `authorization` as its only credential (resolveAccess reads the header). */
function asCaller(request: FastifyRequest, authorization: string | undefined): FastifyRequest {
  const headers = { ...request.headers };
  if (authorization === undefined) delete headers.authorization;
  else headers.authorization = authorization;
  return Object.create(request, { headers: { value: headers, enumerable: true, writable: true } }) as FastifyRequest;
}

/** Where a subscription field's changes come from: the hub, within the plan's limit of live streams. */
function feedOf(platform: Platform, tenant: TenantEntry, runtime: ProjectRuntime, socket: SubscriptionSocket): LiveFeed {
  const project = { id: tenant.project.id, cluster: tenant.project.cluster, schemaName: runtime.schemaName };
  return {
    async follow(request) {
      const limit = liveStreamLimitOf(platform.config, tenant.project);
      if (limit !== null && (await platform.live.counts.total(project.id)) >= limit) {
        throw new RateLimitError(5, `This project has ${limit} live streams open, its plan's limit; try again later.`);
      }
      const start = request.after ?? (await liveHead(platform.db.poolOf(project.cluster), project.schemaName));
      const accepts = acceptsOf(runtime.model, { uids: new Set([request.uid]), locale: request.locale, status: request.status });
      const subscriber = new GraphqlSubscriber(project, start, accepts, request, socket, (s, dropped) => (dropped ? platform.live.dropped(s) : platform.live.remove(s)));
      platform.live.add(subscriber);
      return subscriber;
    },
  };
}

/**
 * The subscriptions of `/graphql` over a WebSocket. Their caller is not resolved by a hook like
 * the content API routes' (tenant/caller.ts): it is the credential of the socket's
 * `connection_init` (else the upgrade's `Authorization`), which arrives after the upgrade, checked
 * then, and again for each operation against the project as it is at that moment (roles and
 * tokens may change while a socket stays open): neither moment is an HTTP request a hook sees.
 */
export function graphqlSocketHandler(platform: Platform): WebsocketHandler {
  const internal = (ctx: { extra: Extra }) => (err: unknown) => ctx.extra.request.log.error({ err }, 'GraphQL subscription failed');
  const server = makeServer<Record<string, unknown> | undefined, Extra>({
    connectionInitWaitTimeout: 10_000,
    async onConnect(ctx) {
      const { request, socket } = ctx.extra;
      const given = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
      if (given !== undefined && typeof given !== 'string') {
        socket.close(CloseCode.Forbidden, 'connection_init: authorization must be a string');
        return false;
      }
      const caller = asCaller(request, given ?? request.headers.authorization);
      try {
        await resolveAccess(caller, request.tenant!, platform);
      } catch (err) {
        const typed = normalizeError(err);
        if (typed.status !== 401 && typed.status !== 403) throw err;
        // graphql-ws's refusal of an init (its clients may retry with a fresh credential).
        socket.close(CloseCode.Forbidden, typed.message);
        return false;
      }
      ctx.extra.caller = caller;
      return true;
    },
    async onSubscribe(ctx, _id, payload) {
      const { request, caller, connection } = ctx.extra;
      try {
        // The project as it is now (settings, roles, model), not as it was when the socket opened.
        const tenant = await platform.registry.resolve(request.tenant!.project.slug);
        if (!tenant || tenant.project.id !== request.tenant!.project.id) throw new NotFoundError();
        const access = await resolveAccess(caller!, tenant, platform);
        const runtime = await platform.runtimes.get(tenant.project);
        const settings = graphqlSettingsOf(tenant.project.settings);
        const graphql = await platform.graphql.get(tenant.project.id, runtime.version, runtime.model, settings);
        const prepared = graphql.prepareSubscription(payload, { defaultLimit: settings.defaultLimit, maxLimit: settings.maxLimit });
        if ('errors' in prepared) return prepared.errors;
        const contextValue = {
          ...graphqlContextOf(caller!, platform, tenant, runtime, access, settings, platform.db.poolOf(tenant.project.cluster)),
          live: feedOf(platform, tenant, runtime, connection),
        };
        return { schema: graphql.schema, document: prepared.document, operationName: prepared.operationName, variableValues: prepared.variables, contextValue };
      } catch (err) {
        return failedSubscription(err, internal(ctx));
      }
    },
    // Resolver errors (FORBIDDEN, a refused limit, a failed read) in the HTTP answers' shape.
    onNext(ctx, _id, _payload, _args, result) {
      if (!result.errors?.length) return;
      return { data: result.data ?? null, errors: result.errors.map((e) => formatExecutionError(e, internal(ctx))) };
    },
    onError(ctx, _id, _payload, errors) {
      return errors.map((e) => (e.originalError ? formatExecutionError(e, internal(ctx)) : e.toJSON()));
    },
  });

  return function handleSocket(socket, request) {
    const connection = new Connection(socket);
    const closed = server.opened({
      protocol: socket.protocol,
      send: (data) => new Promise<void>((resolve) => {
        if (socket.readyState !== socket.OPEN) return resolve();
        // A send that fails is a socket going away: its `close` ends the subscriptions.
        socket.send(data, () => resolve());
      }),
      close: (code, reason) => socket.close(code, reason),
      onMessage: (handle) => socket.on('message', async (data) => {
        try {
          await handle(String(data));
        } catch (err) {
          request.log.error({ err }, 'GraphQL subscription message failed');
          socket.close(CloseCode.InternalServerError, 'Internal server error');
        }
      }),
    }, { socket, request, connection });
    socket.once('close', (code, reason) => void closed(code, String(reason)));
  };
}
