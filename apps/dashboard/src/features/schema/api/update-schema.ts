// Applying a model change in one declarative push (`PUT /v1/projects/{slug}/schema`): refused with
// the attribute it concerns (400) or because another change came first (409). The model it answers
// becomes the project's cached model.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { schemaQueryOptions, type ProjectSchema } from './get-schema.ts';

export type SchemaUpdate = RequestBody<'/v1/projects/{slug}/schema', 'put'>;

export async function updateSchema({ slug, push }: { slug: string; push: SchemaUpdate }): Promise<ProjectSchema> {
  // Typed by the model editor as get-schema.ts reads it (the document's entries are open objects).
  return (await unwrap(client.PUT('/v1/projects/{slug}/schema', { params: { path: { slug } }, body: push }))) as unknown as ProjectSchema;
}

export function useUpdateSchema() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSchema,
    onSuccess: (model, { slug }) => queryClient.setQueryData(schemaQueryOptions(slug).queryKey, model),
  });
}
