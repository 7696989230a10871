#!/usr/bin/env node
// The `zapdesk` bin: registers tsx so the TypeScript sources run as they are (no build step, like
// `npm start` for the server), then hands over to src/main.ts.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
