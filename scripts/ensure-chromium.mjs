// `npm run e2e` launches the system Chromium at /usr/bin/chromium (STACK "Gotchas"; Playwright downloads
// no browser). On a fresh Debian machine it is not there yet: install Debian's `chromium` (and the fonts
// the screenshots are drawn with) where this user may, as root or through passwordless sudo, and
// otherwise stop with the one command to run (ADR 0075).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';
const APT_GET = '/usr/bin/apt-get';
const PACKAGES = ['chromium', 'fonts-liberation'];
/** What a person runs when this script may not install it. */
export const INSTALL_COMMAND = `sudo apt-get update && sudo apt-get install -y ${PACKAGES.join(' ')}`;

/**
 * The install as argument lists: the package lists once, then the packages, without questions. The
 * dpkg lock is waited for (an unattended upgrade at boot holds it for a while) instead of failing.
 */
const installCommands = (asRoot) => {
  const prefix = asRoot ? [] : ['sudo', '-n'];
  return [
    [...prefix, 'apt-get', 'update', '-qq'],
    [...prefix, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', '-o', 'DPkg::Lock::Timeout=300', ...PACKAGES],
  ];
};

const missing = (why) =>
  `e2e needs Chromium at ${CHROMIUM} (Debian's chromium package)${why ? `; ${why}` : ''}. Install it once with:\n  ${INSTALL_COMMAND}`;

/**
 * Makes sure Chromium is at /usr/bin/chromium. `run(argv, { quiet })` runs a command and resolves with its
 * exit code (127 when it cannot be started); `exists(path)` and `isRoot()` look at this machine.
 * Resolves `{ ok: true, installed }`, or `{ ok: false, message }` naming the command to run.
 */
export const ensureChromium = async ({ exists, isRoot, run, log = () => {} }) => {
  if (exists(CHROMIUM)) return { ok: true, installed: false };
  if (!exists(APT_GET)) return { ok: false, message: missing('this machine has no apt-get to install it with') };
  const asRoot = isRoot();
  if (!asRoot && (await run(['sudo', '-n', 'true'], { quiet: true })) !== 0) {
    return { ok: false, message: missing('this user is not root and has no passwordless sudo') };
  }
  log(`Chromium is not at ${CHROMIUM}: installing Debian's ${PACKAGES.join(' and ')} (${asRoot ? 'as root' : 'through sudo'}).`);
  for (const argv of installCommands(asRoot)) {
    const code = await run(argv, { quiet: false });
    if (code !== 0) return { ok: false, message: missing(`\`${argv.join(' ')}\` exited with ${code}`) };
  }
  if (!exists(CHROMIUM)) return { ok: false, message: missing(`the install ended without ${CHROMIUM}`) };
  return { ok: true, installed: true };
};

/** Runs a command with this process's output (or none, `quiet`); resolves with its exit code. */
const runCommand = (argv, { quiet = false } = {}) =>
  new Promise((resolve) => {
    const [command, ...args] = argv;
    const child = spawn(command, args, { stdio: quiet ? 'ignore' : ['ignore', 'inherit', 'inherit'] });
    child.once('error', () => resolve(127));
    child.once('exit', (code) => resolve(code ?? 1));
  });

/** This machine, for `ensureChromium`. */
export const thisMachine = {
  exists: existsSync,
  isRoot: () => process.getuid?.() === 0,
  run: runCommand,
  log: (line) => console.info(line),
};
