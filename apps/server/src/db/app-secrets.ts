import type { Queryable } from './client';

/**
 * A secret shared by every instance (migration app_secrets): the first instance to start stores a
 * candidate, every later one reads the stored value; `candidate` is only called when none is stored yet
 * (a sandbox's RSA key pair is costly). The one writer of app_secrets (ADR 0077). SQL lives in db/ and
 * *.repo.ts (DESIGN rule 2).
 */
export const storedAppSecret = async (q: Queryable, name: string, candidate: () => string): Promise<string> => {
  const read = async () => (await q.query<{ value: string }>('SELECT value FROM app_secrets WHERE name = $1', [name]))[0];
  const existing = await read();
  if (existing) return existing.value;
  // Another instance may insert first: its value wins and both read the same one.
  await q.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, candidate()]);
  const row = await read();
  if (!row) throw new Error(`${name} could not be stored`);
  return row.value;
};
