// The REST routes of a model's content types: `/{pluralName}` and `/{pluralName}/{documentId}`
// for collection types, `/{singularName}` for single types (Strapi v5's routes, no POST there).
import type { ContentType, Model } from '@cms/schema';
import type { PhysicalModel } from '@cms/tables';
import { ref, type JsonObject } from './json-schema.ts';
import type { ContentTypeNames, ModelNames } from './names.ts';
import { errorsFor, fieldsParameter, PAGINATION_PARAMETERS, param, populateParameter, sortParameter } from './parameters.ts';
import { populatableNames, viewOf } from './type-schemas.ts';

const json = (schema: JsonObject) => ({ 'application/json': { schema } });

interface TypeParameters {
  fields: JsonObject;
  populate: JsonObject;
  sort: JsonObject;
  /** status, publicationFilter and release (Draft & Publish types), locale (localized types) */
  status: JsonObject[];
  publication: JsonObject[];
  locale: JsonObject[];
}

function typeParameters(model: Model, physical: PhysicalModel, type: ContentType): TypeParameters {
  const view = viewOf(model, physical, type.uid);
  const fieldNames = view.fields.map((f) => f.name);
  return {
    fields: fieldsParameter(fieldNames),
    populate: populateParameter(populatableNames(view, type.localized)),
    sort: sortParameter(fieldNames),
    status: type.draftAndPublish ? [param('status')] : [],
    // Reads only, as the publication filter; `release` too (a release preview).
    publication: type.draftAndPublish ? [param('publicationFilter'), param('hasPublishedVersion'), param('release')] : [],
    locale: type.localized ? [param('locale')] : [],
  };
}

function operations(type: ContentType, n: ContentTypeNames, p: TypeParameters) {
  const tags = [n.tag];
  const shaping = [p.fields, p.populate, ...p.status, ...p.locale];
  const one = (status: number, description: string) => ({ [status]: { description, content: json(ref(n.response)) } });
  const body = { required: true, content: json(ref(n.request)) };
  return {
    find: {
      tags, operationId: n.ops.find, summary: `List ${type.pluralName}`,
      parameters: [p.fields, p.populate, param('filters'), p.sort, ...PAGINATION_PARAMETERS, ...p.status, ...p.locale, ...p.publication, param('search')],
      responses: { 200: { description: 'A page of documents', content: json(ref(n.listResponse)) }, ...errorsFor(400, 401, 403) },
    },
    findOne: {
      tags, operationId: n.ops.findOne, summary: `Get one ${type.singularName}`,
      parameters: [...shaping, ...p.publication],
      responses: { ...one(200, 'The document'), ...errorsFor(400, 401, 403, 404) },
    },
    getSingle: {
      tags, operationId: n.ops.find, summary: `Get the ${type.singularName}`,
      parameters: [...shaping, ...p.publication],
      responses: { ...one(200, 'The document'), ...errorsFor(400, 401, 403, 404) },
    },
    create: {
      tags, operationId: n.ops.create, summary: `Create a ${type.singularName}`,
      parameters: shaping, requestBody: body,
      responses: { ...one(201, 'The created document (published unless `status=draft`)'), ...errorsFor(400, 401, 403, 413) },
    },
    update: {
      tags, operationId: n.ops.update, summary: `Update ${type.kind === 'singleType' ? 'or create the' : 'a'} ${type.singularName}`,
      description: 'Partial: attributes left out keep their value, `null` clears one.' + (type.localized ? ' With `locale`, updates that locale version or creates it.' : ''),
      parameters: shaping, requestBody: body,
      responses: { ...one(200, 'The written document'), ...errorsFor(400, 401, 403, 404, 413) },
    },
    delete: {
      tags, operationId: n.ops.delete, summary: `Delete ${type.kind === 'singleType' ? 'the' : 'a'} ${type.singularName}`,
      ...(type.localized ? { description: 'Deletes the `locale` version (default: the default locale; `*`: every locale).' } : {}),
      parameters: p.locale,
      responses: { 204: { description: 'Deleted (also when there was nothing to delete)' }, ...errorsFor(400, 401, 403) },
    },
  };
}

/** The paths of every content type, keyed as the document's `paths` (relative to the API base). */
export function contentPaths(model: Model, physical: PhysicalModel, names: ModelNames): Record<string, JsonObject> {
  const paths: Record<string, JsonObject> = {};
  for (const type of Object.values(model.contentTypes)) {
    const ops = operations(type, names.contentTypes.get(type.uid)!, typeParameters(model, physical, type));
    if (type.kind === 'singleType') {
      paths[`/${type.singularName}`] = { get: ops.getSingle, put: ops.update, delete: ops.delete };
    } else {
      paths[`/${type.pluralName}`] = { get: ops.find, post: ops.create };
      paths[`/${type.pluralName}/{documentId}`] = { parameters: [param('documentId')], get: ops.findOne, put: ops.update, delete: ops.delete };
    }
  }
  return paths;
}
