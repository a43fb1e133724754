/**
 * What services and repositories log through: Fastify's pino logger satisfies it, and only routes and
 * the app know Fastify types (DESIGN rule 2).
 */
type LogFn = (fields: object, message: string) => void;

export interface Logger {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}
