import type { Db } from './client';

/**
 * A secret shared by every instance (migration app_secrets): the first instance to start stores its
 * candidate, every later one reads the stored value. SQL lives in db/ and *.repo.ts (DESIGN rule 2).
 */
export const storedAppSecret = async (db: Db, name: string, candidate: string): Promise<string> => {
  await db.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, candidate]);
  const [row] = await db.query<{ value: string }>('SELECT value FROM app_secrets WHERE name = $1', [name]);
  if (!row) throw new Error(`${name} could not be stored`);
  return row.value;
};
