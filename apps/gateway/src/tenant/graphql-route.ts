// `/graphql` of a project: POST (and GET) operations run on the project's generated schema
// (see @cms/graphql), GraphiQL for browsers, subscriptions over a WebSocket of the same path. The
// caller is resolved like REST (caller.ts), so a bad token is refused before GraphQL with the REST
// 401 envelope.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import websocket, { type WebsocketHandler } from '@fastify/websocket';
import { hashPassword } from '@cms/auth';
import { isStaleModelError } from '@cms/errors';
import { GRAPHIQL_ASSETS, graphqlSettingsOf, type GraphqlSettings } from '@cms/graphql/lazy';
import type { GraphqlContext, GraphqlRequest, ReadObserver, ProjectRoles, ProjectUsers, RoleView, UploadFiles } from '@cms/graphql';
import type { ProjectFiles } from '@cms/media';
import { derivedDocumentId, localeDocuments, type ProjectRuntime, type TenantEntry } from '@cms/tenancy';
import { typesOfPlan, type QueryPlan } from '@cms/query';
import { releaseExists } from '@cms/releases';
import { rolesOfUsers, type UsersProject } from '@cms/users';
import type { Platform } from '../platform.ts';
import { previewSettingsOf } from '../preview-settings.ts';
import { projectRoleChanges } from '../project-roles.ts';
import { usersProjectOf, type Access } from './access.ts';
import { answerOf, answerVersion, keepAnswer, keptAnswer, sendAnswer } from './answers.ts';
import { accessOf, callerHook } from './caller.ts';
import type { TenantOptions } from './options.ts';
import { tenantOf, writeOriginOf } from './request-context.ts';
import { traced } from '@cms/telemetry';
import { addDbTime, addPlanTime, setServerTiming } from '../http/server-timing.ts';
import { documentEvents, emitMediaEvents, filesJson } from '../webhook-events.ts';
import { auditWhoOf, type AuditWho } from '../audit/audit-context.ts';
import type { PersistedQueryRefusal } from './persisted-queries.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The subscriptions' protocol when the client offers it, else none (graphql-ws's `handleProtocols`,
 * which is not imported from there: graphql-ws loads graphql-js, left to the first socket).
 */
const GRAPHQL_TRANSPORT_WS = 'graphql-transport-ws';
const handleProtocols = (protocols: Set<string>) => (protocols.has(GRAPHQL_TRANSPORT_WS) ? GRAPHQL_TRANSPORT_WS : false);

const badRequest = (reply: FastifyReply, message: string) =>
  reply.status(400).type(JSON_TYPE).send({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });

// Apollo's CSRF prevention (verified on Strapi): a GET, or a POST a browser could send without a
// preflight, must carry a JSON content type or one of these headers.
const PREFLIGHT_HEADERS = ['x-apollo-operation-name', 'apollo-require-preflight'];
const SIMPLE_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);
const CSRF_MESSAGE = 'This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a ' +
  '\'content-type\' header (with a type that is not one of application/x-www-form-urlencoded, multipart/form-data, text/plain) ' +
  'or provide a non-empty value for one of the following headers: x-apollo-operation-name, apollo-require-preflight\n';

function mayBeForged(request: FastifyRequest): boolean {
  if (PREFLIGHT_HEADERS.some((h) => typeof request.headers[h] === 'string' && request.headers[h] !== '')) return false;
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return type === undefined || SIMPLE_TYPES.has(type);
}

type Operation = Omit<GraphqlRequest, 'method'>;

/**
 * `{query, variables, operationName}` of a POST body or GET query string (`fromQueryString`:
 * `variables` and `extensions` JSON-encoded), the text of a persisted query's hash looked up in
 * the project's (persisted-queries.ts); else the error to answer.
 */
async function operationOf(request: FastifyRequest, platform: Platform, source: unknown, fromQueryString: boolean): Promise<Operation | PersistedQueryRefusal> {
  const refused = (message: string): PersistedQueryRefusal => ({ status: 400, message, code: 'BAD_REQUEST' });
  if (source === null || typeof source !== 'object' || Array.isArray(source)) return refused('POST body must be a JSON object with a `query`.');
  const { query: text, variables, operationName, extensions } = source as Record<string, unknown>;
  let vars = variables;
  if (fromQueryString && typeof vars === 'string') {
    try {
      vars = JSON.parse(vars);
    } catch {
      return refused('`variables` in a GET request must be JSON-encoded.');
    }
  }
  if (vars !== undefined && vars !== null && (typeof vars !== 'object' || Array.isArray(vars))) return refused('`variables` in a POST body should be an object if provided.');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return refused('`operationName` in a POST body must be a string if provided.');
  const resolved = await platform.persistedQueries.resolve(tenantOf(request).project.id, text, extensions, fromQueryString);
  if (!resolved.ok) return resolved.refusal;
  const { query } = resolved;
  if (typeof query !== 'string' || query === '') return refused('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.');
  return { query, variables: (vars ?? undefined) as Record<string, unknown> | undefined, operationName: operationName ?? undefined };
}

/** Answer a refused operation: its status and headers, the route's `{errors: [{message, extensions: {code}}]}` envelope. */
const refuse = (reply: FastifyReply, refusal: PersistedQueryRefusal) =>
  reply.status(refusal.status).headers(refusal.headers ?? {}).type(JSON_TYPE)
    .send({ errors: [{ message: refusal.message, extensions: { code: refusal.code } }] });

/** The upload mutations' view of the project's media library (changes write their webhook events in their transaction). */
function uploadFilesOf(platform: Platform, project: ProjectFiles, runtime: ProjectRuntime, who: AuditWho): UploadFiles {
  const pool = platform.db.tenantPool;
  return {
    documentIdOf: async (id) => (await platform.media.findRow(pool, project.schema, id))?.documentId ?? null,
    updateInfo: (id, info) => pool.transaction(async (tx) => {
      const found = await platform.media.updateInfo(tx, project.schema, id, info);
      if (found) await emitMediaEvents(platform, tx, project.projectId, runtime, 'media.update', [id], who);
      return found;
    }),
    remove: (id) => pool.transaction(async (tx) => {
      const files = await filesJson(tx, runtime, [id]);
      const removed = (await platform.media.remove(tx, project, id)) !== null;
      if (removed) await emitMediaEvents(platform, tx, project.projectId, runtime, 'media.delete', [id], who, files);
      return removed;
    }),
  };
}

/** GraphQL's `role: ID` arrives as a string: digits that name no role type are a role id, as REST takes a number. */
function withRoleId(body: Record<string, unknown>, roleTypes: readonly string[]): Record<string, unknown> {
  const { role } = body;
  if (typeof role !== 'string' || !/^\d{1,15}$/.test(role) || roleTypes.includes(role)) return body;
  return { ...body, role: Number(role) };
}

/** The users-permissions fields' view of the project's end users: the REST routes' calls and limits. */
function projectUsersOf(request: FastifyRequest, tenant: TenantEntry, platform: Platform): ProjectUsers {
  const { endUsers, pool } = platform;
  let built: UsersProject | undefined;
  // Built on first use: most operations never touch end users.
  const project = () => (built ??= usersProjectOf(request, tenant));
  // The auth routes' brute-force limits, on the same counters: GraphQL (and aliases repeating a
  // mutation in one operation) gets no more attempts than REST.
  const attempt = (route: string, identifier: unknown = '') => platform.rateLimits.authAttempt(request, tenant.project.id, route, identifier);
  return {
    async register(body) {
      await attempt('register', body.email);
      return endUsers.register(pool, project(), body);
    },
    async login(body) {
      await attempt('login', body.identifier);
      return endUsers.login(pool, project(), body);
    },
    async forgotPassword(body) {
      await attempt('forgot-password', body.email);
      await endUsers.forgotPassword(pool, project(), body);
    },
    async resetPassword(body) {
      await attempt('reset-password');
      return endUsers.resetPassword(pool, project(), body);
    },
    async changePassword(userId, body) {
      await attempt('change-password');
      return endUsers.changePassword(pool, project(), userId, body);
    },
    async confirmEmail(confirmation) {
      await attempt('email-confirmation');
      return endUsers.confirmEmail(pool, project(), confirmation);
    },
    create: (body) => endUsers.create(pool, project(), withRoleId(body, project().roleTypes)),
    update: (id, body) => endUsers.update(pool, project(), id, withRoleId(body, project().roleTypes)),
    remove: (id) => endUsers.remove(pool, project(), id),
    rolesOf: async (userIds) => {
      const roles = await rolesOfUsers(pool, { projectId: tenant.project.id, schema: tenant.project.schemaName }, userIds);
      return new Map([...roles].map(([userId, role]) => [userId, roleView(tenant.project.id, role)]));
    },
  };
}

/** A role as GraphQL shows it: with the documentId derived from its type. */
function roleView(projectId: number, role: { id: number | string; type: string; name: string; description: string | null; createdAt: string; updatedAt: string }): RoleView {
  return {
    id: String(role.id), documentId: derivedDocumentId(projectId, 'role', role.type), name: role.name, description: role.description ?? '',
    type: role.type, createdAt: role.createdAt, updatedAt: role.updatedAt, publishedAt: role.createdAt,
  };
}

/** The role fields' view of the project's roles; changes go through the management API's path. */
function projectRolesOf(platform: Platform, tenant: TenantEntry): ProjectRoles {
  const changes = projectRoleChanges(platform, tenant.project);
  return {
    list: async () => (await platform.roles.list(tenant.project.id)).map((role) => roleView(tenant.project.id, role)),
    create: async (input) => void (await changes.create(input)),
    updateInfo: async (type, input) => void (await changes.updateInfo(type, input)),
    remove: (type) => changes.remove(type),
  };
}

/** The types an operation read, at any depth (the answer's surrogate keys), and whether it read drafts. */
class ObservedReads implements ReadObserver {
  readonly uids = new Set<string>();
  drafts = false;
  read(uid: string): void {
    this.uids.add(uid);
  }
  plan(plan: QueryPlan): void {
    for (const uid of typesOfPlan(plan)) this.uids.add(uid);
  }
  draft(): void {
    this.drafts = true;
  }
}

/** A GraphQL read's name in the answer cache: the caller's class and a digest of the operation. */
function graphqlAnswerKey(accessKey: string, operation: Operation): string | null {
  let text: string;
  try {
    text = JSON.stringify([operation.query, operation.variables ?? null, operation.operationName ?? null]);
  } catch {
    return null; // variables nested too deep to print: refused by the executor, never kept
  }
  return `graphql\n${accessKey}\n${createHash('sha1').update(text).digest('base64url')}`;
}

/** What the resolvers of one operation (or one subscription, graphql-socket.ts) get: the caller's access and the project's seams. */
export function graphqlContextOf(
  request: FastifyRequest, platform: Platform, tenant: TenantEntry, runtime: ProjectRuntime, access: Access, settings: GraphqlSettings, db: GraphqlContext['db'],
): GraphqlContext {
  return {
    db,
    schemaName: runtime.schemaName,
    model: runtime.model,
    physical: runtime.physical,
    reads: runtime.reads,
    defaultLocale: tenant.project.defaultLocale,
    localeCodes: tenant.localeCodes,
    access,
    limits: { defaultLimit: settings.defaultLimit, maxLimit: settings.maxLimit },
    draftAccess: previewSettingsOf(tenant.project.settings).draftAccess,
    releaseExists: (id) => releaseExists(db, runtime.schemaName, id),
    hashPassword,
    admitDocument: platform.documentQuota.admission(tenant.project, runtime),
    emit: documentEvents(platform, tenant.project, runtime, auditWhoOf(request)),
    history: writeOriginOf(request, 'graphql', platform.config.contentHistory),
    files: uploadFilesOf(platform, { projectId: tenant.project.id, schema: runtime.schemaName }, runtime, auditWhoOf(request)),
    users: projectUsersOf(request, tenant, platform),
    locales: localeDocuments(tenant),
    roles: projectRolesOf(platform, tenant),
  };
}

/** A GET of `/graphql` from a browser, with no operation: GraphiQL's page, when the project shows it. */
function wantsGraphiql(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown>;
  return query.query === undefined && query.extensions === undefined && request.headers.accept?.includes('text/html') === true
    && graphqlSettingsOf(tenantOf(request).project.settings).playground;
}

/**
 * The GraphQL routes, in a plugin of their own with the WebSocket plugin (whose hooks no other
 * route pays for). `socketHandler` serves the subscriptions (live/graphql-socket.ts). WebSocket
 * upgrades go through the tenant hooks (project, rate limits) like any request.
 */
export async function graphqlRoutes(app: FastifyInstance, { platform, socketHandler }: TenantOptions & { socketHandler: WebsocketHandler }): Promise<void> {
  await app.register(websocket, {
    options: { maxPayload: platform.config.bodyLimit, handleProtocols },
    errorHandler: (err, socket, request) => {
      request.log.debug({ err }, 'WebSocket failed');
      socket.terminate();
    },
    // The live hub closes its subscriptions with 1001 (live/graphql-subscriber.ts); sockets without any go the same way.
    preClose(done) {
      for (const client of this.websocketServer.clients) client.close(1001, 'The server is shutting down: reconnect and resume');
      done();
    },
  });

  const caller = callerHook(platform);
  // A GET's caller: none for GraphiQL's page, nor for a WebSocket upgrade, whose caller is its
  // `connection_init`'s credential, checked by the socket (live/graphql-socket.ts).
  const getCaller: preHandlerHookHandler = function (request, reply, done) {
    if (request.ws || wantsGraphiql(request)) done();
    else caller.call(this, request, reply, done);
  };

  async function run(request: FastifyRequest, reply: FastifyReply, operation: Operation, method: 'GET' | 'POST') {
    const tenant = tenantOf(request);
    const access = accessOf(request);
    const runtime = await platform.runtimes.get(tenant.project);
    const settings = graphqlSettingsOf(tenant.project.settings);
    const planning = performance.now();
    const server = await platform.graphql.get(tenant.project.id, runtime.version, runtime.model, settings);
    addPlanTime(request, planning);
    // A query's answer may be kept (answers.ts): never an end user's (`me` is theirs alone), never
    // what looks like a mutation.
    const owners = { tenant, runtime };
    const key = access.user || /^\s*mutation\b/.test(operation.query) ? null : graphqlAnswerKey(access.key, operation);
    const version = await answerVersion(request, platform, owners, key);
    if (version !== null) {
      const kept = keptAnswer(platform, owners, key!, version);
      if (kept) return sendAnswer(request, reply, kept, 'hit');
    }
    const observed = new ObservedReads();
    const started = performance.now();
    const response = await traced('graphql.execute', () => server.execute({ ...operation, method }, {
      ...graphqlContextOf(request, platform, tenant, runtime, access, settings, platform.db.tenantPool),
      observe: observed,
    }));
    addDbTime(request, started);
    // A query that met a model changed under it runs again on the fresh model (see index.ts).
    const stale = response.readOnly && !request.rerunOnFreshModel ? response.internalErrors.find(isStaleModelError) : undefined;
    if (stale) throw stale;
    for (const err of response.internalErrors) request.log.error({ err }, 'GraphQL resolver failed');
    if (observed.drafts) request.deliveryClass = 'draft';
    // Only a whole, successful query's answer is kept: its errors may be passing (a timeout).
    if (response.statusCode === 200 && response.readOnly && response.body.errors === undefined && !response.retryAfterSeconds) {
      const answer = answerOf(tenant.project.id, { body: JSON.stringify(response.body), uids: observed.uids });
      if (version !== null && !observed.drafts) keepAnswer(platform, owners, key!, version, answer);
      return sendAnswer(request, reply, answer, version !== null && !observed.drafts ? 'miss' : 'bypass');
    }
    setServerTiming(request, reply);
    if (response.retryAfterSeconds) reply.header('retry-after', String(response.retryAfterSeconds));
    return reply.status(response.statusCode).type(JSON_TYPE).send(response.body);
  }

  app.post('/graphql', { preHandler: caller }, async (request, reply) => {
    if (mayBeForged(request)) return badRequest(reply, CSRF_MESSAGE);
    const operation = await operationOf(request, platform, request.body, false);
    if ('status' in operation) return refuse(reply, operation);
    return run(request, reply, operation, 'POST');
  });

  // A WebSocket upgrade of the same path serves subscriptions (graphql-transport-ws, live/graphql-socket.ts).
  app.route({ method: 'GET', url: '/graphql', preHandler: getCaller, wsHandler: socketHandler, handler: async (request, reply) => {
    if (wantsGraphiql(request)) return reply.type('text/html; charset=utf-8').send(GRAPHIQL_ASSETS.page);
    const query = request.query as Record<string, unknown>;
    if (mayBeForged(request)) return badRequest(reply, CSRF_MESSAGE);
    const operation = await operationOf(request, platform, query, true);
    if ('status' in operation) return refuse(reply, operation);
    return run(request, reply, operation, 'GET');
  } });

  const script = (body: string) => async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.type('application/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(body);
  app.get('/graphiql/main.js', script(GRAPHIQL_ASSETS.mainJs));
  app.get('/graphiql/sw.js', script(GRAPHIQL_ASSETS.serviceWorkerJs));
  app.get('/graphiql/config.js', script(GRAPHIQL_ASSETS.configJs));
}
