// The types shared by the schema builder and the resolvers: what a request brings (the context)
// and what the gateway supplies through it. A module of their own, so the modules that use them
// import no cycle.
import type { GraphQLEnumType, GraphQLInputObjectType, GraphQLObjectType, GraphQLScalarType } from 'graphql';
import type { Db } from '@cms/db';
import type { PhysicalModel } from '@cms/tables';
import type { DocumentStore } from '@cms/documents';
import type { DraftAccess, ProjectReads, QueryPlan } from '@cms/query';
import type { Model } from '@cms/schema';
import type { GraphqlLimits } from './pagination.ts';
import type { UserRoleSource } from './user-roles.ts';

type Body = Record<string, unknown>;

/** What a request brings to the resolvers (built by the gateway per request). */
export interface GraphqlContext {
  db: Db & DocumentStore['pool'];
  schemaName: string;
  model: Model;
  physical: PhysicalModel;
  defaultLocale: string;
  localeCodes: ReadonlySet<string>;
  /** Equal keys grant the same actions (compiled reads are cached per key); `user`: the end user of a JWT. */
  access: { key: string; can(uid: string, action: string): boolean; readonly user?: { readonly userId: string } };
  limits: GraphqlLimits;
  /** The project's rule for reading drafts (`status: DRAFT`, `release:`); see @cms/query `mayReadDrafts`. */
  draftAccess: DraftAccess;
  /** Whether the project has a release of this id (decimal digits), pending or done. */
  releaseExists(id: string): Promise<boolean>;
  /** The project's compiled reads (the process-wide read cache, under this model version). */
  reads: ProjectReads;
  hashPassword(password: string): Promise<string>;
  /** The plan's document limit, checked by every create (see @cms/documents `DocumentStore`). */
  admitDocument?(tx: Db): Promise<void>;
  /** Webhook events of every write (see @cms/documents `DocumentStore.emit`). */
  emit?: DocumentStore['emit'];
  /** Where this request's writes come from, for content history (see @cms/documents `DocumentStore.history`). */
  history: DocumentStore['history'];
  /** The project's media library, for the upload mutations. */
  files: UploadFiles;
  /** The project's end users, for `me`, the auth mutations and user writes. */
  users: ProjectUsers;
  /** The project's locales, for `i18NLocale(s)`. */
  locales: readonly LocaleView[];
  /** The project's end-user roles, for the role queries and mutations. */
  roles: ProjectRoles;
  /** Told what an operation reads (the gateway's delivery headers and answer cache). */
  observe?: ReadObserver;
  /** Subscriptions only (over WebSocket): the project's change feed. */
  live?: LiveFeed;
}

/** Which changes a subscription field follows, and how its filters decide each one. */
export interface FollowRequest {
  uid: string;
  status: 'published' | 'draft';
  /** null: every locale */
  locale: string | null;
  /** The position to resume after (`after:`), or null for "from now". */
  after: number | null;
  /** The filters, decided from the event alone (documentId, locale): true, false, or null when the document must be read. */
  decide(event: ChangeRef): boolean | null;
  /** The filters, decided on the document as the subscriber reads it (`decide` said null); answers shared through `memo`. */
  matches(event: ChangeRef, memo: ChangeMemo): Promise<boolean>;
}

/** A document event of the project's change log. */
export interface ChangeRef {
  event: string;
  documentId: string;
  locale: string | null;
  position: number;
}

/** Reads shared by the subscriptions given one delivery (key → JSON text or null). */
export type ChangeMemo = Map<string, Promise<string | null>>;

/** The root value of one event of a subscription field (`<Type>ChangeEvent`). */
export interface ChangeSource {
  /** `entry.create|update|delete|publish|unpublish`, or `restart` */
  event: string;
  /** null for `restart` */
  documentId: string | null;
  locale: string | null;
  /** The event's position in the project's log, in decimal (`after:` resumes after it). */
  position: string;
  /** The subscription's status: the document is read in it. */
  status: 'published' | 'draft';
  memo: ChangeMemo;
}

/** The gateway's side of subscriptions: its live hub, with this connection's limits. */
export interface LiveFeed {
  /** Follow the changes asked for; ends when the iterator is returned (the client completes, the socket closes). */
  follow(request: FollowRequest): Promise<AsyncIterableIterator<ChangeSource>>;
}

/** What an operation read: the content types its root fields asked for, their read plans, and whether it read drafts. */
export interface ReadObserver {
  read(uid: string): void;
  plan(plan: QueryPlan): void;
  draft(): void;
}

/** What the upload mutations need of the media library (files are addressed by numeric id). */
export interface UploadFiles {
  /** The documentId of file `id`, or null when there is none. */
  documentIdOf(id: string): Promise<string | null>;
  /** Change a file's info; false when there is no such file. */
  updateInfo(id: string, info: { name?: string; alternativeText?: string | null; caption?: string | null }): Promise<boolean>;
  /** Delete the file and its stored objects; false when there is no such file. */
  remove(id: string): Promise<boolean>;
}

/** What resolvers need to know about the generated names. */
export interface SchemaNames {
  /** uid (content types, components, upload file, end users) → GraphQL object type name */
  typeOf: Map<string, string>;
  /** component type name → uid (dynamic zone items) */
  componentOf: Map<string, string>;
}

/** A locale as the queries answer it (the gateway supplies them with the context). */
export interface LocaleView {
  documentId: string;
  name: string;
  code: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
}

/** Shared schema pieces of the generated schema. */
export interface SchemaParts {
  pagination: GraphQLObjectType;
  paginationArg: GraphQLInputObjectType;
  publicationStatus: GraphQLEnumType;
  filterOf(scalar: GraphQLScalarType): GraphQLInputObjectType;
}

/** A role as the role queries answer it. */
export interface RoleView {
  /** the numeric id, as a string (the mutations address roles by it) */
  id: string;
  documentId: string;
  name: string;
  description: string;
  type: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
}

/** What the role fields need of the project's roles (the gateway supplies it with the context). */
export interface ProjectRoles {
  list(): Promise<readonly RoleView[]>;
  create(input: { type: string; name: string; description?: string }): Promise<void>;
  updateInfo(type: string, input: { name?: string; description?: string }): Promise<void>;
  remove(type: string): Promise<void>;
}

/** A successful login-like operation: the user, and their JWT unless e-mail confirmation is pending. */
export interface AuthOutcome {
  userId: string;
  jwt?: string;
}

/** What the plugin's resolvers need of the project's end users (bodies as the REST routes take them). */
export interface ProjectUsers extends UserRoleSource {
  register(body: Body): Promise<AuthOutcome>;
  login(body: Body): Promise<AuthOutcome>;
  /** Mails a reset code when the address is known; silent otherwise. */
  forgotPassword(body: Body): Promise<void>;
  resetPassword(body: Body): Promise<AuthOutcome>;
  changePassword(userId: string, body: Body): Promise<AuthOutcome>;
  confirmEmail(confirmation: string): Promise<AuthOutcome>;
  /** The new user's id. */
  create(body: Body): Promise<string>;
  /** false when there is no such user. */
  update(id: string, body: Body): Promise<boolean>;
  /** false when there is no such user. */
  remove(id: string): Promise<boolean>;
}
