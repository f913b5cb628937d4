// Public API of @cms/schema: parse and validate Strapi v5 schema.json content models.
export * from './types.ts';
export { parseModel } from './parse-model.ts';
export { ATTRIBUTE_TYPES } from './attributes.ts';
export { MEDIA_TYPES } from './media-attribute.ts';
export { LIMITS, RESERVED_ATTRIBUTE_NAMES, RESERVED_ROUTE_NAMES, isReservedAttributeName } from './names.ts';
export { modelFromFiles, filesFromModel, modelFilePath, type ModelFile, type FilesModel, type FilesImport } from './strapi-files.ts';
