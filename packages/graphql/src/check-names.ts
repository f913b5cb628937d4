// A model must also make a valid GraphQL schema: generated names may collide with each other or
// with the built-in types (a content type `error` or `pagination`, a type `component-shared-seo`
// next to component `shared.seo`). Schema pushes run this check, so a project can never hold a
// model its GraphQL endpoint cannot serve.
import { validateSchema } from 'graphql';
import { ValidationError } from '@cms/errors';
import type { Model } from '@cms/schema';
import { buildProjectSchema } from './build-schema.ts';
import { NO_RESOLVERS } from './field-resolvers.ts';

export function checkGraphqlNames(model: Model): void {
  let problems: string[];
  try {
    problems = validateSchema(buildProjectSchema(model, NO_RESOLVERS).schema).map((e) => e.message);
  } catch (err) {
    problems = [(err as Error).message];
  }
  if (problems.length === 0) return;
  throw ValidationError.fromFieldErrors(problems.slice(0, 20).map((message) => ({
    path: [], message: `The model cannot be served over GraphQL: ${message}`, name: 'ValidationError' as const,
  })));
}
