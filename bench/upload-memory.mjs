// ADR 0012 benchmark: the server's memory while a 100 MB order file streams in. The real server runs in a
// child process (`node --import tsx apps/server/src/main.ts` on a fresh data directory); its resident set
// (VmRSS in /proc/<pid>/status, Linux) is sampled every 50 ms. Goal: the peak at most 64 MB above idle.
// `node bench/upload-memory.mjs`, or `node bench/upload-memory.mjs --s3` (ADR 0080): FILES_STORAGE=s3 on an
// S3-compatible server (s3rver) this bench starts in its own process, so only the server's memory counts.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const UPLOAD_MEMORY_BUDGET_MB = 64;
const UPLOAD_BYTES = 100 * 1000 * 1000;
const CHUNK_BYTES = 64 * 1024;
const SAMPLE_MS = 50;
const root = path.resolve(import.meta.dirname, '..');
const MB = 1024 * 1024;

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const rssBytes = async (pid) => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : NaN;
};

const waitReady = async (base, child) => {
  for (let i = 0; i < 1800; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not become ready in 180 s');
};

/** Streams a multipart body of `size` bytes: a valid PDF head, filler, an EOF marker. Never one buffer. */
const upload = (base, token, orderId, size) =>
  new Promise((resolve, reject) => {
    const boundary = '----bench-upload-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const pdfHead = Buffer.from('%PDF-1.7\n');
    const pdfTail = Buffer.from('\n%%EOF\n');
    const filler = Buffer.alloc(CHUNK_BYTES, 0x20);
    const url = new URL(`${base}/api/en/orders/${orderId}/customers/files`);
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + size + tail.length,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`upload answered ${res.statusCode}: ${body}`)),
        );
      },
    );
    req.on('error', reject);
    const write = (chunk) => (req.write(chunk) ? Promise.resolve() : new Promise((r) => req.once('drain', r)));
    (async () => {
      await write(head);
      await write(pdfHead);
      let left = size - pdfHead.length - pdfTail.length;
      while (left > 0) {
        const n = Math.min(left, CHUNK_BYTES);
        await write(n === CHUNK_BYTES ? filler : filler.subarray(0, n));
        left -= n;
      }
      await write(pdfTail);
      req.end(tail);
    })().catch(reject);
  });

/** A bucket on s3rver (an npm package, ADR 0080) and the settings that point the server at it. */
const startBucket = async (dir) => {
  const { default: S3rver } = await import('s3rver');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'bench', configs: [] }],
  });
  const { port } = await server.run();
  return {
    env: {
      FILES_STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'bench',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: '1',
    },
    close: () => server.close(),
  };
};

/** Prints the figures; true when the peak stays within the budget. `s3`: store in a bucket instead of a folder. */
export const runUploadMemoryBench = async ({ s3 = false } = {}) => {
  if (process.platform !== 'linux') {
    console.info('   skipped: reads /proc/<pid>/status (Linux only)');
    return true;
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-upload-'));
  const bucket = s3 ? await startBucket(path.join(dataDir, 's3')) : undefined;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SEED_DEMO: '1',
      ...(bucket ? bucket.env : { FILES_STORAGE: 'disk' }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitReady(base, child);
    const signIn = await fetch(`${base}/api/en/auth/jwt/sign_in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@example.com', password: 'demo12345', hashDevice: 'bench' }),
    });
    const { accessToken } = await signIn.json();
    const list = await (
      await fetch(`${base}/api/en/sites/categories/1/orders?limit=1`, { headers: { authorization: `Bearer ${accessToken}` } })
    ).json();
    const orderId = list.orders[0].id;

    // Warm the upload path (multipart, storage, the guard) so idle includes the code it loads.
    await upload(base, accessToken, orderId, 1 * MB);
    await new Promise((r) => setTimeout(r, 1000));
    const idleSamples = [];
    for (let i = 0; i < 20; i++) {
      idleSamples.push(await rssBytes(child.pid));
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
    }
    const idle = Math.max(...idleSamples);

    let peak = idle;
    const sampler = setInterval(() => {
      rssBytes(child.pid).then(
        (v) => {
          if (v > peak) peak = v;
        },
        () => undefined,
      );
    }, SAMPLE_MS);
    const started = performance.now();
    const stored = await upload(base, accessToken, orderId, UPLOAD_BYTES);
    const seconds = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 200));
    clearInterval(sampler);

    const above = (peak - idle) / MB;
    const within = above <= UPLOAD_MEMORY_BUDGET_MB && stored.size === UPLOAD_BYTES;
    console.info(
      `   ${(UPLOAD_BYTES / 1e6).toFixed(0)} MB stored ${s3 ? 'in an S3 bucket' : 'on disk'} (${stored.size} bytes) in ${seconds.toFixed(1)} s; RSS idle ${(idle / MB).toFixed(1)} MiB, ` +
        `peak ${(peak / MB).toFixed(1)} MiB: ${above.toFixed(1)} MiB above idle (budget ${UPLOAD_MEMORY_BUDGET_MB} MB) ${within ? 'ok' : 'OVER'}`,
    );
    return within;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    await bucket?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const s3 = process.argv.includes('--s3');
  console.info(`== memory while streaming a 100 MB upload${s3 ? ' to S3 (s3rver)' : ''}`);
  process.exit((await runUploadMemoryBench({ s3 })) ? 0 : 1);
}
