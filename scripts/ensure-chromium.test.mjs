// scripts/ensure-chromium.mjs: what `npm run e2e` does when /usr/bin/chromium is missing (ADR 0075). The
// decisions are checked here with the machine described by plain functions (which files exist, who runs
// this, what each command answers); the real apt-get run happens in CI, whose fresh machine has no
// Chromium until `npm run e2e` installs it (.ci/run installs none of its own).
import { describe, expect, it } from 'vitest';
import { CHROMIUM, ensureChromium, INSTALL_COMMAND } from './ensure-chromium.mjs';

const UPDATE = ['apt-get', 'update', '-qq'];
const INSTALL = [
  'env',
  'DEBIAN_FRONTEND=noninteractive',
  'apt-get',
  'install',
  '-y',
  '-qq',
  '-o',
  'DPkg::Lock::Timeout=300',
  'chromium',
  'fonts-liberation',
];

/**
 * A machine: its files, whether this is root, and the exit code each command answers (by its words; 127,
 * "not found", for any other). A successful apt-get install puts Chromium in place, as the package does.
 */
const machine = ({ files = ['/usr/bin/apt-get'], root = false, codes = {} } = {}) => {
  const present = new Set(files);
  const ran = [];
  const logged = [];
  return {
    ran,
    logged,
    deps: {
      exists: (file) => present.has(file),
      isRoot: () => root,
      log: (line) => logged.push(line),
      run: async (argv) => {
        ran.push(argv);
        const words = argv.join(' ');
        const code = codes[words] ?? 127;
        if (code === 0 && argv.includes('install')) present.add(CHROMIUM);
        return code;
      },
    },
  };
};

describe('npm run e2e on a machine without Chromium (ADR 0075)', () => {
  it('does nothing when /usr/bin/chromium is there', async () => {
    const m = machine({ files: [CHROMIUM, '/usr/bin/apt-get'], root: true });
    expect(await ensureChromium(m.deps)).toEqual({ ok: true, installed: false });
    expect(m.ran).toEqual([]);
  });

  it('as root: updates the package lists once, installs chromium and fonts-liberation, and goes on', async () => {
    const m = machine({ root: true, codes: { [UPDATE.join(' ')]: 0, [INSTALL.join(' ')]: 0 } });
    expect(await ensureChromium(m.deps)).toEqual({ ok: true, installed: true });
    expect(m.ran).toEqual([UPDATE, INSTALL]);
    expect(m.logged.join('\n')).toMatch(/installing Debian's chromium and fonts-liberation \(as root\)/);
  });

  it('not root, with passwordless sudo: the same install through `sudo -n`', async () => {
    const m = machine({
      codes: { 'sudo -n true': 0, [['sudo', '-n', ...UPDATE].join(' ')]: 0, [['sudo', '-n', ...INSTALL].join(' ')]: 0 },
    });
    expect(await ensureChromium(m.deps)).toEqual({ ok: true, installed: true });
    expect(m.ran).toEqual([
      ['sudo', '-n', 'true'],
      ['sudo', '-n', ...UPDATE],
      ['sudo', '-n', ...INSTALL],
    ]);
  });

  it('not root, and sudo asks for a password (or is not there): stops with the one command to run, installing nothing', async () => {
    for (const sudo of [1, 127]) {
      const m = machine({ codes: { 'sudo -n true': sudo } });
      const result = await ensureChromium(m.deps);
      expect(result.ok).toBe(false);
      expect(result.message).toContain(INSTALL_COMMAND);
      expect(result.message).toContain('not root and has no passwordless sudo');
      expect(m.ran).toEqual([['sudo', '-n', 'true']]);
    }
    expect(INSTALL_COMMAND).toBe('sudo apt-get update && sudo apt-get install -y chromium fonts-liberation');
  });

  it('no apt-get on this machine: stops with the command, running nothing', async () => {
    const m = machine({ files: [], root: true });
    const result = await ensureChromium(m.deps);
    expect(result).toMatchObject({ ok: false });
    expect(result.message).toContain('no apt-get');
    expect(result.message).toContain(INSTALL_COMMAND);
    expect(m.ran).toEqual([]);
  });

  it('an install that fails stops the run with its exit code and the command, before Playwright', async () => {
    const m = machine({ root: true, codes: { [UPDATE.join(' ')]: 0, [INSTALL.join(' ')]: 100 } });
    const result = await ensureChromium(m.deps);
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/apt-get install .* exited with 100/);
    expect(result.message).toContain(INSTALL_COMMAND);
    // A failed update stops before the install.
    const offline = machine({ root: true, codes: { [UPDATE.join(' ')]: 100 } });
    expect((await ensureChromium(offline.deps)).ok).toBe(false);
    expect(offline.ran).toEqual([UPDATE]);
  });
});
