// @cms/delivery: what content answers carry to CDNs and browsers (strong ETags, surrogate keys),
// the gateway's shared answer cache and the per-project content versions that keep it exact,
// and the purges sent to a CDN on every change.
export { AnswerCache, type Answer, type AnswerCacheStats } from './answer-cache.ts';
export { createContentVersions, LocalContentVersions, RedisContentVersions, type ContentVersions, type VersionState } from './versions.ts';
export { ifNoneMatchHits, strongEtag } from './etag.ts';
export { changeKeys, documentKey, projectKey, surrogateKeysOf, typeKey } from './surrogate-keys.ts';
export { CdnPurger } from './purge.ts';
