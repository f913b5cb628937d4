export { buildApp, type App } from './app.ts';
export { createPlatform, type Platform } from './platform.ts';
export { createServices, type Services } from './services.ts';
