// Creates a new embedded database (PGlite's initdb) in its own short-lived process, then exits
// (ADR 0031). initdb runs in a second WebAssembly instance with a heap of its own, and a process keeps
// that memory (about 500 MB) long after PGlite drops it; the server opens the created directory instead.
// Plain JavaScript: it runs with `node` alone, before and without tsx.
//   node create-embedded.mjs <data dir> '<JSON array of PostgreSQL start parameters>'
import { PGlite } from '@electric-sql/pglite';

const [dataDir, startParams] = process.argv.slice(2);
const db = new PGlite(dataDir, { startParams: JSON.parse(startParams ?? '[]') });
await db.waitReady;
await db.close();
