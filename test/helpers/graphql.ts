// GraphQL operations against a project's `/graphql` through a content client.
import assert from 'node:assert/strict';
import type { ContentClient } from './content.ts';

type Json = Record<string, any>;

/** Run an operation: its HTTP status and body. */
export const gql = async (client: ContentClient, query: string, variables?: Json, headers?: Record<string, string>) => {
  const res = await client.post('/graphql', { query, ...(variables ? { variables } : {}) }, headers);
  return { status: res.statusCode, body: res.json() as Json };
};

/** An operation that must succeed: its data. */
export const gqlData = async (client: ContentClient, query: string, variables?: Json) => {
  const { status, body } = await gql(client, query, variables);
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  return body.data as Json;
};
