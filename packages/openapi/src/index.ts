// Public API of @cms/openapi: a project's content API as an OpenAPI 3.1 document.
export { buildOpenApiDocument, openApiBuildCount, openApiJson, OPENAPI_VERSION, type OpenApiDocument, type OpenApiModel, type OpenApiProject } from './document.ts';
export { projectServers, type Server, type ServerSite } from './servers.ts';
export type { PageLimits } from './parameters.ts';
