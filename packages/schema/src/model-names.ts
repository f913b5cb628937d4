// Names that must be unique across the whole model: a type's singular and plural names become
// REST routes and GraphQL fields (so neither may repeat another type's), and collection names
// must not collide between content types and components.
import type { Parsed } from './content-type.ts';
import { given } from './guards.ts';
import type { Issues } from './issues.ts';
import type { Component, ContentType } from './types.ts';

export function checkRouteNames(types: Parsed<ContentType>[], issues: Issues): void {
  const owners = new Map<string, string>();
  for (const { value, path } of types) {
    for (const key of ['singularName', 'pluralName'] as const) {
      const name = value[key];
      if (!name) continue; // invalid, already reported
      const owner = owners.get(name);
      if (owner !== undefined && owner !== value.uid) {
        issues.add([...path, 'info', key], `${key} "${name}" is already used by ${owner}`);
      } else {
        owners.set(name, value.uid);
      }
    }
  }
}

export function checkCollectionNames(types: Parsed<ContentType>[], components: Parsed<Component>[], issues: Issues): void {
  const owners = new Map<string, string>();
  for (const { value, path } of [...types, ...components]) {
    const name = value.collectionName;
    if (!name) continue;
    const owner = owners.get(name);
    if (owner === undefined) {
      owners.set(name, value.uid);
      continue;
    }
    const derived = given(value.raw, 'collectionName') ? '' : ' (the default)';
    issues.add([...path, 'collectionName'], `collectionName "${name}"${derived} is already used by ${owner}`);
  }
}
