// scripts/builds.mjs: what `npm start` rebuilds, and when (ADR 0030), and how (ADR 0057).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildIsCurrent,
  buildServer,
  checkBuild,
  inputsHash,
  WEB_BUILD_INPUTS,
  webBuildCommand,
  webBuildEnv,
  writeBuildStamp,
} from './builds.mjs';

const root = path.resolve(import.meta.dirname, '..');
const fixtures = [];
/** A small repository: web sources, a domain file, the lock, and a web build in dist. */
const fixture = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'builds-'));
  fixtures.push(dir);
  const write = (file, content) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  };
  write('apps/web/src/main.tsx', 'export const a = 1;');
  write('apps/web/src/main.test.tsx', 'test');
  write('apps/web/vite.config.ts', 'export default {};');
  write('packages/domain/src/index.ts', 'export const rule = 1;');
  write('package-lock.json', '{}');
  write('apps/web/dist/index.html', '<html></html>');
  return { dir, write, dist: path.join(dir, 'apps/web/dist') };
};
afterEach(() => {
  for (const dir of fixtures.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the web build is reused until its inputs change (ADR 0030)', () => {
  it('is out of date without a stamp, current once stamped, and stale again after a source change', () => {
    const { dir, write, dist } = fixture();
    const before = inputsHash(dir, WEB_BUILD_INPUTS);
    expect(buildIsCurrent(dist, 'index.html', before)).toBe(false);
    writeBuildStamp(dist, before);
    expect(buildIsCurrent(dist, 'index.html', inputsHash(dir, WEB_BUILD_INPUTS))).toBe(true);

    write('apps/web/src/main.tsx', 'export const a = 2;');
    expect(buildIsCurrent(dist, 'index.html', inputsHash(dir, WEB_BUILD_INPUTS))).toBe(false);
  });

  it.each([
    ['the domain package', 'packages/domain/src/index.ts'],
    ['the lock (a new Vite or React)', 'package-lock.json'],
    ['the Vite config', 'apps/web/vite.config.ts'],
    ['a new file', 'apps/web/public/robots.txt'],
  ])('counts %s as an input', (_name, file) => {
    const { dir, write } = fixture();
    const before = inputsHash(dir, WEB_BUILD_INPUTS);
    write(file, 'changed');
    expect(inputsHash(dir, WEB_BUILD_INPUTS)).not.toBe(before);
  });

  it('ignores tests, node_modules and the build itself', () => {
    const { dir, write } = fixture();
    const before = inputsHash(dir, WEB_BUILD_INPUTS);
    write('apps/web/src/main.test.tsx', 'changed');
    write('apps/web/node_modules/x/index.js', 'changed');
    write('apps/web/dist/assets/app.js', 'changed');
    expect(inputsHash(dir, WEB_BUILD_INPUTS)).toBe(before);
  });

  it('rebuilds when the build folder lost its entry (dist deleted, a stamp left behind)', () => {
    const { dir, dist } = fixture();
    const hash = inputsHash(dir, WEB_BUILD_INPUTS);
    writeBuildStamp(dist, hash);
    rmSync(path.join(dist, 'index.html'));
    expect(buildIsCurrent(dist, 'index.html', hash)).toBe(false);
  });
});

describe('the check before each start reads no file when nothing was touched (ADR 0058)', () => {
  it('is current by file sizes and times alone once stamped; an edit makes it stale; a touch without a change is still current', () => {
    const { dir, write, dist } = fixture();
    const first = checkBuild(dir, WEB_BUILD_INPUTS, dist, 'index.html');
    expect(first.current).toBe(false);
    writeBuildStamp(dist, first.hash, first.stats);
    expect(checkBuild(dir, WEB_BUILD_INPUTS, dist, 'index.html')).toEqual({ current: true });

    // An edit of the same length: its time moved, its content hash differs.
    write('apps/web/src/main.tsx', 'export const a = 2;');
    const edited = checkBuild(dir, WEB_BUILD_INPUTS, dist, 'index.html');
    expect(edited.current).toBe(false);
    expect(edited.hash).toBe(inputsHash(dir, WEB_BUILD_INPUTS));
    writeBuildStamp(dist, edited.hash, edited.stats);

    // Touched (a checkout rewrote it as it was): the content decides, the stamp is refreshed, no build.
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(dir, 'apps/web/src/main.tsx'), later, later);
    expect(checkBuild(dir, WEB_BUILD_INPUTS, dist, 'index.html')).toEqual({ current: true });
    const stamp = JSON.parse(readFileSync(path.join(dist, '.build-stamp.json'), 'utf8'));
    expect(stamp.inputs).toBe(edited.hash);
    expect(stamp.stats).not.toBe(edited.stats);
    expect(checkBuild(dir, WEB_BUILD_INPUTS, dist, 'index.html')).toEqual({ current: true });
  });

  it('is stale without the entry file, and with an old stamp that has no file times', () => {
    const { dir, dist } = fixture();
    const first = checkBuild(dir, WEB_BUILD_INPUTS, dist, 'index.html');
    writeBuildStamp(dist, 'an-older-build');
    expect(checkBuild(dir, WEB_BUILD_INPUTS, dist, 'index.html').current).toBe(false);
    writeBuildStamp(dist, first.hash, first.stats);
    rmSync(path.join(dist, 'index.html'));
    expect(checkBuild(dir, WEB_BUILD_INPUTS, dist, 'index.html').current).toBe(false);
  });
});

describe('npm start builds the web app for production, whatever NODE_ENV the server has (ADR 0057)', () => {
  it('gives the build NODE_ENV=production and Vite --mode production', () => {
    expect(webBuildEnv({ NODE_ENV: 'development', PORT: '3000' })).toEqual({ NODE_ENV: 'production', PORT: '3000' });
    const { args, cwd } = webBuildCommand(root);
    expect(args.slice(-3)).toEqual(['build', '--mode', 'production']);
    expect(cwd).toBe(path.join(root, 'apps/web'));
  });
});

describe('the server bundle (ADR 0030: no TypeScript loader in the running server)', () => {
  it('bundles the server into one ES module whose folders still point at the sources', async () => {
    await buildServer(root);
    const bundle = readFileSync(path.join(root, 'apps/server/dist/main.mjs'), 'utf8');
    // The domain package is inside; packages from node_modules stay imports.
    expect(bundle).not.toMatch(/from ["']@app\/domain["']/);
    expect(bundle).toMatch(/from ["']fastify["']/);
    const folders = [...bundle.matchAll(/import\.meta\.dirname \+ "([^"]+)"/g)].map((m) => path.join(root, 'apps/server/dist', m[1]));
    expect(folders).toContain(path.join(root, 'apps/server/src/db'));
    expect(bundle).not.toMatch(/import\.meta\.dirname(?! \+ ")/);
    // ADR 0058: what a start may not need is no static import (loaded when configured or first used).
    const staticImports = [...bundle.matchAll(/^import\s[^;]*?["']([^"']+)["'];?$/gm)].map((m) => m[1]);
    expect(staticImports).toContain('@electric-sql/pglite');
    for (const optional of [
      'ioredis',
      'pg',
      'nodemailer',
      'prom-client',
      'jose',
      '@node-rs/argon2',
      '@fastify/swagger',
      '@fastify/swagger-ui',
      // ADR 0080: the S3 SDK only with FILES_STORAGE=s3.
      '@aws-sdk/client-s3',
      '@aws-sdk/lib-storage',
      '@aws-sdk/s3-request-presigner',
    ]) {
      expect(staticImports).not.toContain(optional);
    }
  }, 60_000);
});
