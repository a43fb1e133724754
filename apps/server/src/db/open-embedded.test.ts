import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbedded } from './client';

const dir = mkdtempSync(path.join(tmpdir(), 'open-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the embedded database on disk (idle memory, ADR 0031)', () => {
  it('creates a new data directory (initdb in a process of its own), opens it, and opens it again', async () => {
    const pgDir = path.join(dir, 'pg');
    const db = await openEmbedded(pgDir);
    expect(existsSync(path.join(pgDir, 'PG_VERSION'))).toBe(true);
    await db.query('CREATE TABLE kept (id int)');
    await db.query('INSERT INTO kept VALUES (1)');
    await db.close();

    const again = await openEmbedded(pgDir);
    try {
      expect(await again.query('SELECT id FROM kept')).toEqual([{ id: 1 }]);
    } finally {
      await again.close();
    }
  });

  it('runs with 4 MB of shared buffers, not PostgreSQL’s 128 MB, which PGlite’s heap would keep', async () => {
    const db = await openEmbedded(path.join(dir, 'pg'));
    try {
      expect(await db.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '4MB' }]);
    } finally {
      await db.close();
    }
  });
});
