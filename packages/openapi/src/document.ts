// A project's OpenAPI 3.1 document. The model's part (tags, paths, schemas, parameters) is a
// pure function of the model and the REST limits, built and serialized once per model version
// (kept with the model object, which the runtime replaces on every version); the head — title,
// model version and servers — is the project's and the request's, added when it is served.
import { UPLOAD_FILE_UID, USERS_UID } from '@cms/query';
import type { Model } from '@cms/schema';
import type { PhysicalModel } from '@cms/tables';
import { contentPaths } from './content-paths.ts';
import type { JsonObject } from './json-schema.ts';
import { modelNames, PLUGIN_TAGS } from './names.ts';
import { errorResponses, sharedParameters, type PageLimits } from './parameters.ts';
import { PLUGIN_OPERATIONS, pluginPaths } from './plugin-paths.ts';
import { fixedSchemas } from './plugin-schemas.ts';
import type { Server } from './servers.ts';
import { modelSchemas, viewOf } from './type-schemas.ts';

export const OPENAPI_VERSION = '3.1.1';

export interface OpenApiModel {
  /** The normalised model (`@cms/schema`) */
  model: Model;
  /** Its physical names (`@cms/tables`), which the read views are built from */
  physical: PhysicalModel;
  /** The model version the document describes */
  version: number;
}

export interface OpenApiProject {
  slug: string;
  name: string;
}

export interface OpenApiDocument extends JsonObject {
  openapi: string;
  info: JsonObject;
  servers: Server[];
  paths: Record<string, JsonObject>;
  components: JsonObject;
}

type ModelPart = Pick<OpenApiDocument, 'paths' | 'components'> & { tags: JsonObject[] };

function modelPart({ model, physical }: OpenApiModel, limits: PageLimits): ModelPart {
  const names = modelNames(model, PLUGIN_OPERATIONS);
  const fieldsOf = (uid: string) => viewOf(model, physical, uid).fields.map((f) => f.name);
  const pluginTags: Record<(typeof PLUGIN_TAGS)[number], string> = {
    Upload: 'The media library', 'Users-Permissions': 'End users and their authentication', I18n: 'Locales', OpenAPI: 'This document',
  };
  return {
    tags: [
      ...Object.values(model.contentTypes).map((t) => ({ name: names.contentTypes.get(t.uid)!.tag, description: `\`${t.uid}\`` })),
      ...PLUGIN_TAGS.map((name) => ({ name, description: pluginTags[name] })),
    ],
    paths: { ...contentPaths(model, physical, names), ...pluginPaths(fieldsOf(UPLOAD_FILE_UID), fieldsOf(USERS_UID)) },
    components: {
      schemas: { ...fixedSchemas(model, physical), ...modelSchemas(model, physical, names) },
      parameters: sharedParameters(limits),
      responses: errorResponses(),
      securitySchemes: {
        bearerAuth: {
          type: 'http', scheme: 'bearer',
          description: 'An API token of the project, or an end user\'s JWT (`/auth/local`). Without one the public role applies.',
        },
      },
    },
  };
}

/** What is the project's and the request's, not the model's: the document's head. */
function head(input: OpenApiModel, project: OpenApiProject, servers: Server[]) {
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: `${project.name} API`,
      version: String(input.version),
      description: `The REST content API of the project \`${project.slug}\` (Strapi v5 compatible), model version ${input.version}. Errors are \`{data: null, error: {status, name, message, details}}\`.`,
    },
    servers,
    // Optional: without a token the project's public role applies.
    security: [{}, { bearerAuth: [] }],
  };
}

/** The document of a model, built from scratch (pure). */
export function buildOpenApiDocument(input: OpenApiModel, project: OpenApiProject, servers: Server[], limits: PageLimits): OpenApiDocument {
  return { ...head(input, project, servers), ...modelPart(input, limits) };
}

// Per model object (one per project model version): dropped with the runtime that holds it.
// Kept as JSON text: a request only serializes the head.
const built = new WeakMap<Model, { limits: PageLimits; json: string }>();
let builds = 0;

/** How many model parts this process built (a request for a document already built adds none). */
export const openApiBuildCount = (): number => builds;

/**
 * The same document as JSON text, its model part built and serialized once per model version
 * and shared by every request for it.
 */
export function openApiJson(input: OpenApiModel, project: OpenApiProject, servers: Server[], limits: PageLimits): string {
  let entry = built.get(input.model);
  if (!entry || entry.limits.defaultLimit !== limits.defaultLimit || entry.limits.maxLimit !== limits.maxLimit) {
    entry = { limits, json: JSON.stringify(modelPart(input, limits)) };
    built.set(input.model, entry);
    builds++;
  }
  return `${JSON.stringify(head(input, project, servers)).slice(0, -1)},${entry.json.slice(1)}`;
}
