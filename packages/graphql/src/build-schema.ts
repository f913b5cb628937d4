// A project's GraphQL schema, generated from its model with Strapi v5's names and shapes.
// Built once per model version; resolvers come from `resolvers.ts`.
import { GraphQLBoolean, GraphQLEnumType, GraphQLFloat, GraphQLID, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, GraphQLUnionType, type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap, type GraphQLFieldConfigMap, type GraphQLInputFieldConfigMap, type GraphQLInputType, type GraphQLOutputType, type GraphQLScalarType } from 'graphql';
import type { Attribute, ContentType, Model, ScalarAttribute, ScalarType } from '@cms/schema';
import { isPluginType, PUBLICATION_FILTERS, UPLOAD_FILE_UID, USERS_UID } from '@cms/query';
import { changedDocumentField, changedSubscriptionName, changeEventName, componentTypeName, connectionSuffix, dynamicZoneTypeName, entityCollectionName, enumMemberNames, enumTypeName, findOneQueryName, findQueryName, relationCollectionName, subscriptionRootName, typeName } from './names.ts';
import { DateScalar, DateTimeScalar, JSONScalar, LocaleScalar, LongScalar, TimeScalar } from './scalars.ts';
import { dynamicZoneInputScalar } from './dynamic-zone-input.ts';
import { addLocaleQueries } from './locales.ts';
import { linkResolver, linkConnectionResolver, type RootResolvers } from './field-resolvers.ts';
import { USER_TYPE_NAME, UsersPermissionsUser } from './users-types.ts';
import { addUsersPermissions } from './users-schema.ts';
import type { GraphqlContext, SchemaNames } from './context.ts';

export const FILE_TYPE_NAME = 'UploadFile';

const nonNull = <T extends GraphQLOutputType>(t: T) => new GraphQLNonNull(t);
const list = <T extends GraphQLOutputType | GraphQLInputType>(t: T) => new GraphQLList(t);

const PublicationStatus = new GraphQLEnumType({ name: 'PublicationStatus', values: { DRAFT: { value: 'draft' }, PUBLISHED: { value: 'published' } } });
/** Strapi's publication cohorts: NEVER_PUBLISHED → `never-published`, … */
const PublicationFilterEnum = new GraphQLEnumType({
  name: 'PublicationFilter',
  values: Object.fromEntries(PUBLICATION_FILTERS.map((value) => [value.toUpperCase().replaceAll('-', '_'), { value }])),
});

const Pagination = new GraphQLObjectType({
  name: 'Pagination',
  fields: { total: { type: nonNull(GraphQLInt) }, page: { type: nonNull(GraphQLInt) }, pageSize: { type: nonNull(GraphQLInt) }, pageCount: { type: nonNull(GraphQLInt) } },
});

const PaginationArg = new GraphQLInputObjectType({
  name: 'PaginationArg',
  fields: { page: { type: GraphQLInt }, pageSize: { type: GraphQLInt }, start: { type: GraphQLInt }, limit: { type: GraphQLInt } },
});

const DeleteMutationResponse = new GraphQLObjectType({ name: 'DeleteMutationResponse', fields: { documentId: { type: nonNull(GraphQLID) } } });

/** Member of every dynamic-zone union (Strapi resolves it only for a zone without components). */
const ErrorType = new GraphQLObjectType({ name: 'Error', fields: { code: { type: nonNull(GraphQLString) }, message: { type: GraphQLString } } });

// Scalar filter inputs share one field set (verified): and/or/in/notIn/between take lists of the scalar.
const FILTER_OPERATORS = ['eq', 'eqi', 'ne', 'nei', 'startsWith', 'endsWith', 'contains', 'notContains', 'containsi', 'notContainsi', 'gt', 'gte', 'lt', 'lte'];

function scalarFilterInput(scalar: GraphQLScalarType): GraphQLInputObjectType {
  const self: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: `${scalar.name}FilterInput`,
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = { and: { type: list(scalar) }, or: { type: list(scalar) }, not: { type: self } };
      for (const op of FILTER_OPERATORS) fields[op] = { type: scalar };
      Object.assign(fields, { null: { type: GraphQLBoolean }, notNull: { type: GraphQLBoolean }, in: { type: list(scalar) }, notIn: { type: list(scalar) }, between: { type: list(scalar) } });
      return fields;
    },
  });
  return self;
}

const SCALAR_FILTERS = new Map<GraphQLScalarType, GraphQLInputObjectType>(
  [GraphQLString, GraphQLInt, LongScalar, GraphQLFloat, GraphQLBoolean, DateScalar, TimeScalar, DateTimeScalar, JSONScalar, GraphQLID]
    .map((s) => [s, scalarFilterInput(s)]),
);
const filterOf = (s: GraphQLScalarType) => SCALAR_FILTERS.get(s)!;

const SCALAR_OF: Record<Exclude<ScalarType, 'enumeration' | 'password'>, GraphQLScalarType> = {
  string: GraphQLString, text: GraphQLString, richtext: GraphQLString, email: GraphQLString, uid: GraphQLString,
  blocks: JSONScalar, json: JSONScalar, integer: GraphQLInt, biginteger: LongScalar, float: GraphQLFloat, decimal: GraphQLFloat,
  boolean: GraphQLBoolean, date: DateScalar, time: TimeScalar, datetime: DateTimeScalar,
};

/** The file object of the media library (minus `id`). */
const FileInfoInput = new GraphQLInputObjectType({
  name: 'FileInfoInput',
  fields: { name: { type: GraphQLString }, alternativeText: { type: GraphQLString }, caption: { type: GraphQLString } },
});

/** The file type; `related` lists what uses the file (`GenericMorph`, every object type). */
function fileType(related: () => GraphQLUnionType): GraphQLObjectType {
  const str = { type: GraphQLString };
  return new GraphQLObjectType({
    name: FILE_TYPE_NAME,
    fields: () => ({
      documentId: { type: nonNull(GraphQLID) }, name: { type: nonNull(GraphQLString) }, alternativeText: str, caption: str,
      focalPoint: { type: JSONScalar }, width: { type: GraphQLInt }, height: { type: GraphQLInt }, formats: { type: JSONScalar },
      hash: { type: nonNull(GraphQLString) }, ext: str, mime: { type: nonNull(GraphQLString) }, size: { type: nonNull(GraphQLFloat) },
      url: { type: nonNull(GraphQLString) }, previewUrl: str, provider: { type: nonNull(GraphQLString) }, provider_metadata: { type: JSONScalar },
      related: { type: list(related()), resolve: linkResolver },
      createdAt: { type: DateTimeScalar }, updatedAt: { type: DateTimeScalar }, publishedAt: { type: DateTimeScalar },
    }),
  });
}

class SchemaBuilder {
  readonly names: SchemaNames = { typeOf: new Map(), componentOf: new Map() };
  private readonly objects = new Map<string, GraphQLObjectType>();
  private readonly filters = new Map<string, GraphQLInputObjectType>();
  private readonly inputs = new Map<string, GraphQLInputObjectType>();
  private readonly enums = new Map<string, GraphQLEnumType>();
  private readonly collections = new Map<string, GraphQLObjectType>();

  constructor(private readonly model: Model, private readonly resolvers: RootResolvers, private readonly withUsers: boolean, private readonly withSubscriptions: boolean) {
    for (const ct of Object.values(model.contentTypes)) this.names.typeOf.set(ct.uid, typeName(ct));
    for (const c of Object.values(model.components)) {
      this.names.typeOf.set(c.uid, componentTypeName(c));
      this.names.componentOf.set(componentTypeName(c), c.uid);
    }
    this.names.typeOf.set(UPLOAD_FILE_UID, FILE_TYPE_NAME);
    this.objects.set(FILE_TYPE_NAME, fileType(() => this.genericMorph()));
    if (withUsers) {
      this.names.typeOf.set(USERS_UID, USER_TYPE_NAME);
      this.objects.set(USER_TYPE_NAME, UsersPermissionsUser);
    }
  }

  build(): GraphQLSchema {
    const query: GraphQLFieldConfigMap<unknown, unknown> = {};
    const mutation: GraphQLFieldConfigMap<unknown, unknown> = {};
    const subscription: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const ct of Object.values(this.model.contentTypes)) {
      const name = this.names.typeOf.get(ct.uid)!;
      const type = this.object(ct.uid);
      if (this.withSubscriptions) {
        const field = changedSubscriptionName(ct);
        // Two types with one field name would silently lose one: refuse instead (check-names.ts).
        if (Object.hasOwn(subscription, field)) throw new Error(`Two content types generate the subscription field "${field}"`);
        subscription[field] = this.changeSubscription(ct, name, type);
      }
      const readArgs: GraphQLFieldConfigArgumentMap = {
        status: { type: PublicationStatus }, hasPublishedVersion: { type: GraphQLBoolean }, publicationFilter: { type: PublicationFilterEnum },
        // Ours: a release preview (the documents as the release will publish them).
        release: { type: GraphQLID },
      };
      if (ct.localized) readArgs.locale = { type: LocaleScalar };
      const writeArgs: GraphQLFieldConfigArgumentMap = { status: { type: PublicationStatus }, data: { type: new GraphQLNonNull(this.input(ct.uid)) } };
      const localeArg: GraphQLFieldConfigArgumentMap = ct.localized ? { locale: { type: LocaleScalar } } : {};
      if (ct.kind === 'singleType') {
        query[findOneQueryName(ct)] = { type, args: readArgs, resolve: this.resolvers.single(ct.uid) };
        mutation[`update${name}`] = { type, args: { ...writeArgs, ...localeArg }, resolve: this.resolvers.update(ct.uid) };
        mutation[`delete${name}`] = { type: DeleteMutationResponse, args: localeArg, resolve: this.resolvers.remove(ct.uid) };
        continue;
      }
      const listArgs = { ...this.listArgs(ct.uid), ...readArgs };
      query[findOneQueryName(ct)] = { type, args: { documentId: { type: new GraphQLNonNull(GraphQLID) }, ...readArgs }, resolve: this.resolvers.findOne(ct.uid) };
      query[findQueryName(ct)] = { type: nonNull(list(type)), args: listArgs, resolve: this.resolvers.findMany(ct.uid) };
      query[`${findQueryName(ct)}${connectionSuffix}`] = { type: this.entityCollection(ct.uid), args: listArgs, resolve: this.resolvers.connection(ct.uid) };
      mutation[`create${name}`] = { type, args: { ...writeArgs, ...localeArg }, resolve: this.resolvers.create(ct.uid) };
      mutation[`update${name}`] = {
        type, args: { documentId: { type: new GraphQLNonNull(GraphQLID) }, ...writeArgs, ...localeArg }, resolve: this.resolvers.update(ct.uid),
      };
      mutation[`delete${name}`] = {
        type: DeleteMutationResponse, args: { documentId: { type: new GraphQLNonNull(GraphQLID) }, ...localeArg }, resolve: this.resolvers.remove(ct.uid),
      };
    }
    const files = this.object(UPLOAD_FILE_UID);
    query.uploadFile = { type: files, args: { documentId: { type: new GraphQLNonNull(GraphQLID) } }, resolve: this.resolvers.findOne(UPLOAD_FILE_UID) };
    query.uploadFiles = { type: nonNull(list(files)), args: this.listArgs(UPLOAD_FILE_UID), resolve: this.resolvers.findMany(UPLOAD_FILE_UID) };
    query[`uploadFiles${connectionSuffix}`] = { type: this.entityCollection(UPLOAD_FILE_UID), args: this.listArgs(UPLOAD_FILE_UID), resolve: this.resolvers.connection(UPLOAD_FILE_UID) };
    mutation.updateUploadFile = { type: nonNull(files), args: { id: { type: nonNull(GraphQLID) }, info: { type: FileInfoInput } }, resolve: this.resolvers.updateFile() };
    mutation.deleteUploadFile = { type: files, args: { id: { type: nonNull(GraphQLID) } }, resolve: this.resolvers.removeFile() };
    const parts = { pagination: Pagination, paginationArg: PaginationArg, publicationStatus: PublicationStatus, filterOf };
    if (this.withUsers) {
      addUsersPermissions(query, mutation, {
        user: this.object(USERS_UID), listArgs: this.listArgs(USERS_UID), collection: this.entityCollection(USERS_UID), resolvers: this.resolvers, shared: parts,
      });
    }
    addLocaleQueries(query as GraphQLFieldConfigMap<unknown, GraphqlContext>, parts);
    const taken = new Set(this.names.typeOf.values());
    return new GraphQLSchema({
      query: new GraphQLObjectType({ name: 'Query', fields: query }),
      mutation: Object.keys(mutation).length ? new GraphQLObjectType({ name: 'Mutation', fields: mutation }) : undefined,
      subscription: Object.keys(subscription).length ? new GraphQLObjectType({ name: subscriptionRootName((n) => taken.has(n)), fields: subscription }) : undefined,
    });
  }

  /**
   * `{singularName}Changed(filters, locale, status, after): <Type>ChangeEvent!` (ours, docs/graphql.md
   * § Subscriptions): the type's document changes, each with the document as the subscriber reads it.
   */
  private changeSubscription(ct: ContentType, name: string, type: GraphQLObjectType): GraphQLFieldConfig<unknown, unknown> {
    const event = new GraphQLObjectType({
      name: changeEventName(name),
      fields: () => ({
        event: { type: nonNull(GraphQLString) },
        documentId: { type: GraphQLID },
        locale: { type: GraphQLString },
        position: { type: nonNull(GraphQLID) },
        [changedDocumentField(ct)]: { type, resolve: this.resolvers.changed(ct.uid) },
      }),
    });
    const args: GraphQLFieldConfigArgumentMap = {};
    // A single type has one document (per locale): nothing to filter.
    if (ct.kind !== 'singleType') args.filters = { type: this.filter(ct.uid) };
    if (ct.localized) args.locale = { type: LocaleScalar };
    args.status = { type: PublicationStatus };
    args.after = { type: GraphQLID };
    return { type: nonNull(event), args, subscribe: this.resolvers.changes(ct.uid), resolve: (source: unknown) => source };
  }

  private listArgs(uid: string): GraphQLFieldConfigArgumentMap {
    return { filters: { type: this.filter(uid) }, pagination: { type: PaginationArg }, sort: { type: list(GraphQLString), defaultValue: [] } };
  }

  /** Without the plugin (the name-clash check's build) relations to end users have no type to point at. */
  private hasTargetType(attr: Attribute): boolean {
    return this.withUsers || attr.kind !== 'relation' || attr.target !== USERS_UID;
  }

  /** The attributes a type shows (`private` ones only where they are written: its input). */
  private attributesOf(uid: string, withPrivate = false): Attribute[] {
    const owner = this.model.contentTypes[uid] ?? this.model.components[uid];
    return owner ? Object.values(owner.attributes).filter((a) => (withPrivate || !a.private) && this.hasTargetType(a)) : [];
  }

  private enumType(owner: string, attr: ScalarAttribute): GraphQLEnumType {
    const name = enumTypeName(owner, attr.name, typeof attr.raw.enumName === 'string' ? attr.raw.enumName : undefined);
    let type = this.enums.get(name);
    if (!type) {
      const values: Record<string, { value: string }> = {};
      for (const [value, member] of enumMemberNames(attr.enum ?? [])) values[member] = { value };
      this.enums.set(name, (type = new GraphQLEnumType({ name, values })));
    }
    return type;
  }

  private scalarType(owner: string, attr: ScalarAttribute): GraphQLScalarType | GraphQLEnumType {
    if (attr.type === 'enumeration') return this.enumType(owner, attr);
    return SCALAR_OF[attr.type as keyof typeof SCALAR_OF];
  }

  /** Object type of a content type, component or the file type. */
  object(uid: string): GraphQLObjectType {
    const name = this.names.typeOf.get(uid)!;
    let type = this.objects.get(name);
    if (type) return type;
    const ct = this.model.contentTypes[uid];
    type = new GraphQLObjectType({
      name,
      fields: () => {
        const fields: GraphQLFieldConfigMap<unknown, unknown> = ct ? { documentId: { type: nonNull(GraphQLID) } } : { id: { type: nonNull(GraphQLID) } };
        for (const attr of this.attributesOf(uid)) Object.assign(fields, this.outputFields(name, attr));
        if (ct) {
          fields.createdAt = { type: DateTimeScalar };
          fields.updatedAt = { type: DateTimeScalar };
          fields.publishedAt = { type: DateTimeScalar };
          if (ct.localized) {
            fields.locale = { type: GraphQLString };
            Object.assign(fields, this.manyFields('localizations', uid));
          }
        }
        return fields;
      },
    });
    this.objects.set(name, type);
    return type;
  }

  private outputFields(owner: string, attr: Attribute): GraphQLFieldConfigMap<unknown, unknown> {
    switch (attr.kind) {
      case 'scalar': {
        if (attr.type === 'password') return {};
        const type = this.scalarType(owner, attr);
        return { [attr.name]: { type: attr.required ? nonNull(type) : type } };
      }
      case 'relation':
        return attr.many ? this.manyFields(attr.name, attr.target) : { [attr.name]: { type: this.object(attr.target), resolve: linkResolver } };
      case 'media':
        return attr.multiple ? this.manyFields(attr.name, UPLOAD_FILE_UID) : { [attr.name]: { type: this.object(UPLOAD_FILE_UID), resolve: linkResolver } };
      case 'component': {
        const type = this.object(attr.component);
        if (!attr.repeatable) return { [attr.name]: { type, resolve: linkResolver } };
        return { [attr.name]: { type: list(type), args: this.listArgs(attr.component), resolve: linkResolver } };
      }
      case 'dynamiczone':
        return { [attr.name]: { type: list(this.dynamicZone(owner, attr.name, attr.components)), resolve: linkResolver } };
    }
  }

  /** `<name>(filters, pagination, sort): [T]!` and `<name>_connection(…): TRelationResponseCollection`. */
  private manyFields(name: string, target: string): GraphQLFieldConfigMap<unknown, unknown> {
    const args = this.listArgs(target);
    const type = this.object(target);
    const flat: GraphQLFieldConfig<unknown, unknown> = { type: nonNull(list(type)), args, resolve: linkResolver };
    const collection = this.collection(relationCollectionName(type.name), () => ({ nodes: { type: nonNull(list(nonNull(type))) } }));
    return { [name]: flat, [`${name}${connectionSuffix}`]: { type: collection, args, resolve: linkConnectionResolver } };
  }

  /** A collection type, made once per name (many relations share their target's). */
  private collection(name: string, fields: () => GraphQLFieldConfigMap<unknown, unknown>): GraphQLObjectType {
    let type = this.collections.get(name);
    if (!type) this.collections.set(name, (type = new GraphQLObjectType({ name, fields })));
    return type;
  }

  private entityCollection(uid: string): GraphQLObjectType {
    const type = this.object(uid);
    return this.collection(entityCollectionName(type.name), () => ({ nodes: { type: nonNull(list(nonNull(type))) }, pageInfo: { type: nonNull(Pagination) } }));
  }

  private morph: GraphQLUnionType | undefined;

  /** Strapi's union of every object type a morph relation may point at (rows carry `__typename`). */
  private genericMorph(): GraphQLUnionType {
    this.morph ??= new GraphQLUnionType({
      name: 'GenericMorph',
      types: () => [...Object.keys(this.model.components), ...Object.keys(this.model.contentTypes), UPLOAD_FILE_UID, ...(this.withUsers ? [USERS_UID] : [])]
        .map((uid) => this.object(uid)),
    });
    return this.morph;
  }

  private dynamicZone(owner: string, attribute: string, components: string[]): GraphQLUnionType {
    return new GraphQLUnionType({
      name: dynamicZoneTypeName(owner, attribute),
      types: () => [...components.map((uid) => this.object(uid)), ErrorType],
      resolveType: (value: { __component?: string }) => (value.__component ? this.names.typeOf.get(value.__component) : ErrorType.name),
    });
  }

  /** `<Type>FiltersInput`: scalars, relations and components; no media, no dynamic zones (verified). */
  filter(uid: string): GraphQLInputObjectType {
    const name = `${this.names.typeOf.get(uid)!}FiltersInput`;
    let type = this.filters.get(name);
    if (type) return type;
    const ct = this.model.contentTypes[uid];
    const self: GraphQLInputObjectType = new GraphQLInputObjectType({
      name,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {};
        if (ct || isPluginType(uid)) fields.documentId = { type: filterOf(GraphQLID) };
        // Plugin types filter on their scalar fields (a user's `role` is not filterable here).
        if (isPluginType(uid)) {
          for (const [field, scalar] of Object.entries(this.object(uid).getFields())) {
            const named = scalar.type instanceof GraphQLNonNull ? scalar.type.ofType : scalar.type;
            if (field !== 'documentId' && SCALAR_FILTERS.has(named as GraphQLScalarType)) fields[field] = { type: filterOf(named as GraphQLScalarType) };
          }
        }
        for (const attr of this.attributesOf(uid)) {
          if (attr.kind === 'scalar' && attr.type !== 'password') {
            fields[attr.name] = { type: filterOf(attr.type === 'enumeration' ? GraphQLString : SCALAR_OF[attr.type]) };
          } else if (attr.kind === 'relation') {
            fields[attr.name] = { type: this.filter(attr.target) };
          } else if (attr.kind === 'component') {
            fields[attr.name] = { type: this.filter(attr.component) };
          }
        }
        if (ct) {
          for (const ts of ['createdAt', 'updatedAt', 'publishedAt']) fields[ts] = { type: filterOf(DateTimeScalar) };
          if (ct.localized) {
            fields.locale = { type: filterOf(GraphQLString) };
            fields.localizations = { type: self };
          }
        }
        Object.assign(fields, { and: { type: list(self) }, or: { type: list(self) }, not: { type: self } });
        return fields;
      },
    });
    this.filters.set(name, (type = self));
    return type;
  }

  /** `<Type>Input` / `<Component>Input`: every attribute optional (required is checked when writing). */
  input(uid: string): GraphQLInputObjectType {
    const typeName = this.names.typeOf.get(uid)!;
    const name = `${typeName}Input`;
    let type = this.inputs.get(name);
    if (type) return type;
    const ct = this.model.contentTypes[uid];
    type = new GraphQLInputObjectType({
      name,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = ct ? {} : { id: { type: GraphQLID } };
        // Private and password attributes are writable.
        for (const attr of this.attributesOf(uid, true)) {
          const field = this.inputField(typeName, attr);
          if (field) fields[attr.name] = { type: field };
        }
        if (ct) fields.publishedAt = { type: DateTimeScalar };
        return fields;
      },
    });
    this.inputs.set(name, type);
    return type;
  }

  private inputField(owner: string, attr: Attribute): GraphQLInputType | null {
    switch (attr.kind) {
      case 'scalar':
        return attr.type === 'password' ? GraphQLString : this.scalarType(owner, attr);
      case 'relation':
        return attr.many ? list(GraphQLID) : GraphQLID;
      case 'media':
        return attr.multiple ? list(GraphQLID) : GraphQLID;
      case 'component':
        return attr.repeatable ? list(this.input(attr.component)) : this.input(attr.component);
      case 'dynamiczone': {
        const choices = new Map(attr.components.map((uid) => [this.names.typeOf.get(uid)!, uid]));
        return list(new GraphQLNonNull(dynamicZoneInputScalar(`${dynamicZoneTypeName(owner, attr.name)}Input`, choices)));
      }
    }
  }
}

export interface SchemaOptions {
  usersPermissions?: boolean;
  subscriptions?: boolean;
}

/**
 * `subscriptions: false` leaves the Subscription type out: servers.ts serves that to a model
 * stored before subscriptions whose names clash with theirs (check-names.ts refuses such a model now).
 * `usersPermissions: false` leaves the users-permissions plugin out: check-names.ts builds that to
 * name a model's clashes with the plugin, and servers.ts to serve a model stored before they were refused.
 */
export function buildProjectSchema(model: Model, resolvers: RootResolvers, options: SchemaOptions = {}): { schema: GraphQLSchema; names: SchemaNames } {
  const builder = new SchemaBuilder(model, resolvers, options.usersPermissions ?? true, options.subscriptions ?? true);
  return { schema: builder.build(), names: builder.names };
}

