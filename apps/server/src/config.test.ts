import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, loadEnvFile } from './config';

describe('loadEnvFile (ADR 0033: `.env` is loaded when present)', () => {
  const dirs: string[] = [];
  const envFile = (content: string): string => {
    const dir = mkdtempSync(path.join(tmpdir(), 'env-file-'));
    dirs.push(dir);
    const file = path.join(dir, '.env');
    writeFileSync(file, content);
    return file;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('takes the variables of the file into the environment, and the configuration reads them', () => {
    const file = envFile('# comment\nPORT=4123\nPUBLIC_ORIGIN="https://shop.example.com/"\nexport LOG_LEVEL=warn\n');
    const env: NodeJS.ProcessEnv = {};
    expect(loadEnvFile(file, env).sort()).toEqual(['LOG_LEVEL', 'PORT', 'PUBLIC_ORIGIN']);
    const config = loadConfig(env);
    expect(config.port).toBe(4123);
    expect(config.publicOrigin).toBe('https://shop.example.com');
    expect(config.logLevel).toBe('warn');
  });

  it('never overrides a variable that is already set, even to an empty string', () => {
    const file = envFile('PORT=4123\nDATABASE_URL=postgres://file@db/app\nMAIL_FROM=from-file\n');
    const env: NodeJS.ProcessEnv = { PORT: '5000', DATABASE_URL: '' };
    expect(loadEnvFile(file, env)).toEqual(['MAIL_FROM']);
    expect(env).toEqual({ PORT: '5000', DATABASE_URL: '', MAIL_FROM: 'from-file' });
    expect(loadConfig(env).databaseUrl).toBeUndefined();
  });

  it('does nothing when there is no file', () => {
    const env: NodeJS.ProcessEnv = { PORT: '5000' };
    expect(loadEnvFile(path.join(tmpdir(), 'no-such-dir-for-env', '.env'), env)).toEqual([]);
    expect(env).toEqual({ PORT: '5000' });
  });
});
