#!/usr/bin/env node
// Runs the TypeScript entry with tsx's ESM loader, so `npx cms …` works without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
