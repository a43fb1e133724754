import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'data-dir-lock-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const lockFile = () => path.join(dir, 'server.lock');

describe('the embedded data directory lock (STACK "Gotchas")', () => {
  it('writes our PID and removes the lock file on release, once', () => {
    const release = acquireDataDirLock(dir);
    expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(lockFile())).toBe(false);
    expect(() => release()).not.toThrow();
  });

  it('refuses a directory held by another live process, naming its PID and what to do', () => {
    // The parent of this test worker is alive for as long as the test runs.
    const holder = process.ppid;
    writeFileSync(lockFile(), String(holder));
    let thrown: unknown;
    try {
      acquireDataDirLock(dir);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DataDirLockedError);
    const message = (thrown as Error).message;
    expect(message).toContain(`PID ${holder}`);
    expect(message).toContain(dir);
    expect(message).toMatch(/Stop that process/);
    expect(message).toMatch(/DATA_DIR|DATABASE_URL/);
    // The holder's lock is left in place.
    expect(readFileSync(lockFile(), 'utf8')).toBe(String(holder));
  });

  it('reclaims the stale lock of a process that is gone', () => {
    writeFileSync(lockFile(), '999999');
    const release = acquireDataDirLock(dir);
    expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('reclaims a lock file that holds no PID', () => {
    writeFileSync(lockFile(), 'garbage');
    const release = acquireDataDirLock(dir);
    expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
    release();
  });
});
