import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';

export interface OpsOptions {
  metrics: Metrics;
  /** Throws unless the database and the file store answer. */
  check: () => Promise<void>;
  /** Seconds a readiness check may take before it counts as a failure. */
  checkTimeout?: number;
}

const within = <T>(p: Promise<T>, seconds: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), seconds * 1000).unref())]);

/**
 * Operations endpoints, outside /v2 and without authentication: `/healthz` (the process answers),
 * `/readyz` (database and storage reachable: 200, else 503), `/metrics` (Prometheus text). Every
 * response of the app is counted and timed by route pattern and status.
 */
export function registerOps(app: FastifyInstance, o: OpsOptions) {
  // A callback hook, not an async one: it runs for every response and needs no promise.
  app.addHook('onResponse', (request, reply, done) => {
    o.metrics.request(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  const hide = { schema: { hide: true } as object };
  app.get('/healthz', hide, async () => ({ status: 'up' }));
  app.get('/readyz', hide, async (_request, reply) => {
    try {
      await within(o.check(), o.checkTimeout ?? 5);
      return { status: 'ready' };
    } catch (e) {
      app.log.warn({ err: e }, 'not ready');
      return reply.code(503).send({ status: 'unavailable', reason: 'the database or the file store does not answer' });
    }
  });
  app.get('/metrics', hide, async (_request, reply) => reply.type(o.metrics.contentType).send(await o.metrics.text()));
}
