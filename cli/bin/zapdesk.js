#!/usr/bin/env node
// The `zapdesk` bin: registers tsx so the TypeScript sources run as they are (no build step, like
// `npm start` for the server), then hands over to src/main.ts.
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { register } from 'tsx/esm/api';

// React's production build for the Ink views: the development one is slower and keeps more memory.
process.env.NODE_ENV ??= 'production';
// The repo's tsconfig by path, not the one tsx would look for in the current folder: run from
// anywhere else, the .tsx views would be compiled for the classic JSX runtime and fail.
register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('../src/main.ts');
