// Public API of @cms/cli for programs that drive the platform the way `cms` does
// (the command itself is src/main.ts, run by bin/cms.js).
export { ApiError, createClient, type Client, type ClientOptions, type RequestOptions } from './client.ts';
export { generateTypes, type TypegenResult } from './typegen.ts';
