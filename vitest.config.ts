import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{sync,server,cli,web}/**/*.test.{ts,tsx}', 'e2e/**/*.test.ts'],
    // A new machine has no Chromium: installed (or asked for) before the e2e tests run. Every
    // temporary folder of the run goes under one that is removed at its end.
    globalSetup: ['e2e/provision-chromium.ts', 'server/test/run-tmpdir.ts'],
    exclude: ['**/node_modules/**'],
    // Cheap argon2 parameters keep the suite fast; production uses the library defaults.
    env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', ARGON2_PARALLELISM: '1' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
