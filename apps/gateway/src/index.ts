export { buildApp, type App } from './app.ts';
export { createPlatform, type Platform } from './platform.ts';
