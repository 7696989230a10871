import { openDatabase, checkpointStats } from './src/db/database.ts';
import { mkdtempSync } from 'node:fs';
import { sql } from 'kysely';
const dir = mkdtempSync('/tmp/ck-');
const { db } = openDatabase(dir + '/z.db');
await sql`create table t (id integer primary key, b text)`.execute(db);
for (let i = 0; i < 3000; i++) { await sql`insert into t (b) values (${'x'.repeat(3000)})`.execute(db); if (i % 500 === 0) await new Promise(r => setTimeout(r, 300)); }
await new Promise(r => setTimeout(r, 2500));
console.log(checkpointStats(db));
await db.destroy();
