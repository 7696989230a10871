// `npm start`: the API on PORT (default 8080) over DATA_DIR (default ./data).
import { loadConfig } from './config.ts';
import { startServer } from './server.ts';

const config = loadConfig();
const running = await startServer(config);
const { superAdmin, demo } = running.firstStart;

const lines = [`zapdesk API listening on ${running.apiUrl} (data in ${config.dataDir}, ${running.deps.dialect})`];
if (running.webUrl) lines.push(`zapdesk web app on ${running.webUrl}`);
if (superAdmin) {
  lines.push('', 'First start: created the platform super-admin', `  email:    ${superAdmin.email}`);
  lines.push(superAdmin.generated ? `  password: ${superAdmin.password}   (shown once; set ADMIN_PASSWORD to choose it)` : '  password: the one in ADMIN_PASSWORD');
}
if (demo) {
  lines.push('', 'Demo company created (SEED_DEMO=0 to skip):');
  for (const u of demo.users) lines.push(`  ${u.email}`);
  lines.push(demo.users[0]?.generated ? `  password for all three: ${demo.users[0].password}` : '  password: the one in DEMO_PASSWORD');
}
lines.push('', `Try: curl -s -X POST ${running.apiUrl}/auth/login -H 'content-type: application/json' -d '{"email":"…","password":"…"}'`);
console.log(lines.join('\n'));

const shutdown = async (signal: string) => {
  console.log(`\n${signal}: shutting down`);
  await running.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
