import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/**
 * Counts each connection's requests in progress, so a shutdown can close every connection that has
 * none: keep-alive ones between requests, and ones opened but without a request yet, which Node's
 * closeIdleConnections() leaves open until their headers time out.
 */
export const trackConnections = (server: Server): { closeIdle: () => void } => {
  const inFlight = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  server.on('request', (request, response) => {
    const socket = request.socket;
    if (inFlight.has(socket)) inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    response.once('close', () => {
      if (inFlight.has(socket)) inFlight.set(socket, Math.max(0, (inFlight.get(socket) ?? 1) - 1));
    });
  });
  return {
    closeIdle: () => {
      for (const [socket, requests] of inFlight) if (requests === 0) socket.destroy();
    },
  };
};

/** Something to close after the HTTP server, in order (the metrics listener, the database). */
export interface Closer {
  name: string;
  close: () => Promise<void>;
}

/**
 * Graceful shutdown (ADR 0033): stop accepting connections, close the idle ones
 * (and each one that turns idle), let requests in flight (uploads) finish for up to `timeoutMs`, then close every connection still open;
 * then the rest, in order. Answers the exit code: 0 when everything closed in time, 1 when the
 * deadline forced connections closed or something failed to close.
 */
export const shutdown = async ({
  app,
  closers,
  timeoutMs,
  signal,
  closeIdle = () => app.server.closeIdleConnections(),
}: {
  app: FastifyInstance;
  closers: readonly Closer[];
  timeoutMs: number;
  signal: string;
  /** Closes the connections without a request in progress (trackConnections; else Node's own). */
  closeIdle?: () => void;
}): Promise<number> => {
  app.log.info({ signal, timeoutMs }, 'shutting down: no new connections; requests in flight may finish');
  let forced = false;
  // A connection whose request finishes during the drain turns idle afterwards and would hold the close
  // up until the deadline: sweep them as they come.
  closeIdle();
  const sweep = setInterval(closeIdle, 100);
  const deadline = setTimeout(() => {
    forced = true;
    app.log.warn({ timeoutMs }, 'shutdown deadline passed: closing the connections still open');
    app.server.closeAllConnections();
  }, timeoutMs);
  let failed = false;
  try {
    await app.close();
  } catch (error) {
    failed = true;
    app.log.error({ err: error }, 'closing the HTTP server failed');
  } finally {
    clearTimeout(deadline);
    clearInterval(sweep);
  }
  for (const closer of closers) {
    try {
      await closer.close();
    } catch (error) {
      failed = true;
      app.log.error({ err: error }, `closing the ${closer.name} failed`);
    }
  }
  const code = failed || forced ? 1 : 0;
  app.log.info({ exitCode: code, forced, failed }, 'shut down');
  return code;
};

/** A fatal error's log entry: pino's error serializer keeps the type, message and stack. */
export const logFatal = (log: FastifyBaseLogger | undefined, error: unknown, what: string): void => {
  const err = error instanceof Error ? error : new Error(String(error));
  // Fastify without a logger (LOG_LEVEL=silent) has a no-op one without a level.
  if (log?.level && log.level !== 'silent') log.fatal({ err }, what);
  // Without a logger (LOG_LEVEL=silent, or before the app exists) the stack still reaches stderr.
  else process.stderr.write(`${what}: ${err.stack ?? err.message}\n`);
};

/**
 * An uncaught exception or unhandled rejection leaves the process in an unknown state: log it at fatal
 * with its stack, then exit 1 (the process manager restarts it).
 */
export const exitOnFatalErrors = (getLog: () => FastifyBaseLogger | undefined, exit: (code: number) => void): void => {
  process.on('uncaughtException', (error) => {
    logFatal(getLog(), error, 'uncaught exception');
    exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    logFatal(getLog(), reason, 'unhandled promise rejection');
    exit(1);
  });
};
