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
    // Each of the two workers imports the server, the sync core and the web app once, not once per
    // file: every module-level cache is keyed by its app's database (a file already runs many apps
    // in one process), and no test mocks a module. On a 2-core machine the run took 19.4 min of wall
    // time with 24.7 min of CPU (341 s of it importing), and 14.1 min with 11.6 min of CPU without.
    isolate: false,
  },
});
