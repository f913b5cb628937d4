// Copy-ready calls of a project's content API, filled with its real URLs: curl, @strapi/client,
// fetch and GraphQL. `token` is the placeholder to replace (null: the call is anonymous).

export interface SnippetTarget {
  apiUrl: string;
  graphqlUrl: string;
  /** REST path segment of a collection type (its pluralName) */
  plural: string;
  token: string | null;
}

/** GraphQL's list query of a type: its pluralName in camelCase (`blog-posts` → `blogPosts`). */
export const graphqlListName = (plural: string) => plural.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

export function snippets({ apiUrl, graphqlUrl, plural, token }: SnippetTarget): Array<{ label: string; code: string }> {
  const auth = token ? ` \\\n  -H "Authorization: Bearer ${token}"` : '';
  const query = `{ ${graphqlListName(plural)} { documentId } }`;
  return [
    { label: 'curl', code: `curl "${apiUrl}/${plural}"${auth}` },
    {
      label: '@strapi/client',
      code: [
        `import { strapi } from '@strapi/client';`,
        '',
        `const client = strapi({ baseURL: '${apiUrl}'${token ? `, auth: '${token}'` : ''} });`,
        `const { data } = await client.collection('${plural}').find();`,
      ].join('\n'),
    },
    {
      label: 'fetch',
      code: [
        `const res = await fetch('${apiUrl}/${plural}'${token ? `, {\n  headers: { Authorization: 'Bearer ${token}' },\n}` : ''});`,
        'const { data, meta } = await res.json();',
      ].join('\n'),
    },
    {
      label: 'GraphQL',
      code: `curl "${graphqlUrl}" \\\n  -H "Content-Type: application/json"${auth} \\\n  -d '${JSON.stringify({ query })}'`,
    },
  ];
}
