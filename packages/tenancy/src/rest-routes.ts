// A model's REST routes: which content type a path names (`/api/:pluralApiId` for collections,
// `/api/:singularApiId` for single types).
import type { ContentType, Model } from '@cms/schema';

export interface RestRoute {
  type: ContentType;
  single: boolean;
}

export function restRoutesOf(model: Model): ReadonlyMap<string, RestRoute> {
  const routes = new Map<string, RestRoute>();
  for (const type of Object.values(model.contentTypes)) {
    if (type.kind === 'singleType') routes.set(type.singularName, { type, single: true });
    else routes.set(type.pluralName, { type, single: false });
  }
  return routes;
}
