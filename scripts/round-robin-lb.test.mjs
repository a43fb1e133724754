import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoadBalancer } from './round-robin-lb.mjs';

const closers = [];
afterEach(async () => {
  while (closers.length) await closers.pop()();
});

/** An instance that answers its name; `onRequest` may end the connection instead. */
const instance = async (name, onRequest = () => false) => {
  const server = http.createServer((request, response) => {
    if (onRequest(request)) return;
    response.setHeader('content-type', 'text/plain');
    response.end(`${name} ${request.method} ${request.headers['x-forwarded-for']}`);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `127.0.0.1:${server.address().port}`;
};

/**
 * Each connection answers once, then resets on its next request: what a request written on a connection the
 * instance is closing sees.
 */
const resetOnReuse = () => {
  const served = new WeakSet();
  return (request) => {
    if (!served.has(request.socket)) {
      served.add(request.socket);
      return false;
    }
    request.socket.destroy();
    return true;
  };
};

const balancer = async (upstreams) => {
  const lb = await startLoadBalancer({ port: 0, upstreams });
  closers.push(() => lb.close());
  return lb;
};

const get = (port, method = 'GET') =>
  new Promise((resolve, reject) => {
    // A connection of its own per request (agent: false): what the balancer does behind it is the subject.
    const request = http.request({ host: '127.0.0.1', port, method, path: '/', agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode, body, upstream: response.headers['x-upstream'] }));
    });
    request.on('error', reject);
    request.end(method === 'POST' ? 'x' : undefined);
  });

describe('the round-robin load balancer', () => {
  it('spreads requests over the instances in turn and appends the peer to X-Forwarded-For', async () => {
    const a = await instance('a');
    const b = await instance('b');
    const lb = await balancer([a, b]);
    const answers = [await get(lb.port), await get(lb.port), await get(lb.port)];
    expect(answers.map((x) => x.body)).toEqual(['a GET 127.0.0.1', 'b GET 127.0.0.1', 'a GET 127.0.0.1']);
    expect(answers.map((x) => x.upstream)).toEqual([a, b, a]);
  });

  it('sends a GET again when the kept-alive connection it was written on is reset (the instance closed it meanwhile)', async () => {
    const a = await instance('a', resetOnReuse());
    const lb = await balancer([a]);
    for (let i = 0; i < 3; i += 1) expect(await get(lb.port)).toMatchObject({ status: 200, body: 'a GET 127.0.0.1' });
  });

  it('does not send a POST twice: a reset connection is a 502', async () => {
    const a = await instance('a', resetOnReuse());
    const lb = await balancer([a]);
    expect(await get(lb.port, 'POST')).toMatchObject({ status: 200 });
    expect(await get(lb.port, 'POST')).toMatchObject({ status: 502 });
  });

  it('skips an instance that refuses the connection', async () => {
    const a = await instance('a');
    const gone = await instance('gone');
    await closers.pop()();
    const lb = await balancer([gone, a]);
    expect(await get(lb.port)).toMatchObject({ status: 200, body: 'a GET 127.0.0.1' });
  });
});
