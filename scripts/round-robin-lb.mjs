// A small round-robin HTTP load balancer (node:http, no dependencies), the one docs/operations.md "Running at
// scale" names and scripts/scale-check.mjs runs. It does what the recipe needs from haproxy or nginx:
// spreads requests over the instances in turn, skips one that refuses the connection, and appends the
// peer's address to X-Forwarded-For (with X-Forwarded-Proto and -Host), so instances started with
// TRUST_PROXY=1 see the client that connected to it and nothing a client wrote itself. Each answer names
// the instance that served it in X-Upstream.
//
//   LB_PORT=8080 LB_UPSTREAMS=127.0.0.1:3001,127.0.0.1:3002 node scripts/round-robin-lb.mjs
//
// Plain HTTP only (terminate TLS in front of it); no WebSocket upgrade yet.
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/** Starts the balancer; resolves with { server, port, close() }. */
export const startLoadBalancer = async ({ port = 0, host = '127.0.0.1', upstreams, proto = 'http' }) => {
  if (upstreams.length === 0) throw new Error('no upstreams');
  // No idle timeout of its own (one cut the balancer's throughput to a quarter in the soak, ADR 0083): a
  // connection the instance closes as it is reused is answered by sending the request again (below).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;

  const forward = (request, response, attempt) => {
    const upstream = upstreams[next % upstreams.length];
    next += 1;
    const [upstreamHost, upstreamPort] = upstream.split(':');
    const headers = {};
    for (const [name, value] of Object.entries(request.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
    const peer = request.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = request.headers['x-forwarded-for'] ? `${request.headers['x-forwarded-for']}, ${peer}` : peer;
    headers['x-forwarded-proto'] = proto;
    headers['x-forwarded-host'] = request.headers.host ?? '';
    const proxied = http.request(
      { host: upstreamHost, port: Number(upstreamPort), method: request.method, path: request.url, headers, agent },
      (answer) => {
        const out = {};
        for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
        out['x-upstream'] = upstream;
        response.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(response);
      },
    );
    proxied.on('error', (error) => {
      const idempotent = request.method === 'GET' || request.method === 'HEAD';
      // A refused connection: that instance is down; a request without a body goes to the next one.
      // A kept-alive connection reset as it was reused (the instance closed it meanwhile): the request never
      // reached it, and one without a body is sent again (what nginx's proxy_next_upstream does).
      const stale = error.code === 'ECONNRESET' && proxied.reusedSocket && !response.headersSent;
      if (idempotent && ((error.code === 'ECONNREFUSED' && attempt + 1 < upstreams.length) || (stale && attempt < upstreams.length))) {
        forward(request, response, attempt + 1);
        return;
      }
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Bad gateway' }));
    });
    request.pipe(proxied);
  };

  const server = http.createServer((request, response) => forward(request, response, 0));
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    server,
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
};

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  const upstreams = (process.env.LB_UPSTREAMS ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  const lb = await startLoadBalancer({
    port: Number(process.env.LB_PORT ?? 8080),
    host: process.env.LB_HOST ?? '0.0.0.0',
    upstreams,
    proto: process.env.LB_PROTO ?? 'http',
  });
  console.info(`round-robin load balancer on :${lb.port} -> ${upstreams.join(', ')}`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void lb.close().then(() => process.exit(0)));
}
