import { openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
const url = process.argv[2]!;
const { db } = openDatabase(url);
console.log(await migrateToLatest(db));
await db.destroy();
