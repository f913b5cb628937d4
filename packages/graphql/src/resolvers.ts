// Root resolvers: each Query/Mutation field is planned from its whole selection set and read in
// one statement (plus a count for `pageInfo`), with the REST side's planner and renderer. One
// module per seam: reads (root-reads.ts, through the shared read cache), document writes
// (root-writes.ts), media files (file-resolvers.ts), the users-permissions fields
// (users-resolvers.ts) and the subscription fields (subscriptions.ts).
import type { Model } from '@cms/schema';
import type { RootResolvers } from './field-resolvers.ts';
import { createFileResolvers } from './file-resolvers.ts';
import { createReadResolvers } from './root-reads.ts';
import { createSubscriptionResolvers } from './subscriptions.ts';
import { createWriteResolvers } from './root-writes.ts';
import { createUsersResolvers } from './users-resolvers.ts';
import type { SchemaNames } from './context.ts';

export function createRootResolvers(model: Model, names: () => SchemaNames): RootResolvers {
  const users = createUsersResolvers(names);
  return {
    ...createReadResolvers(names),
    ...createWriteResolvers(model, names),
    ...createFileResolvers(names),
    ...createSubscriptionResolvers(names),
    users: (field) => users[field],
  };
}
