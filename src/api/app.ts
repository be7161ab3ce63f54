import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { errors } from '../domain/errors.ts';
import { authenticator } from './authenticate.ts';
import { registerEnvelope } from './envelope.ts';
import { collectOpenApi } from './openapi.ts';
import { portalPlugin } from './portal/index.ts';
import { avatarRoutes } from './routes/avatars.ts';
import { executeRoutes } from './routes/execute.ts';
import { fileRoutes } from './routes/files.ts';
import { metaRoutes } from './routes/meta.ts';
import { profileRoutes } from './routes/profile.ts';
import { speechRoutes } from './routes/speech.ts';
import type { Services } from './services.ts';

/** The HTTP surface: every /v2 route behind ServiceDigest authentication, plus signed file links and the OpenAPI document. */
// Request ids need to be unique in the logs, not secret: a process prefix and a counter.
const requestPrefix = crypto.randomBytes(4).toString('hex');
let requests = 0;

export async function buildApp(s: Services, logger: FastifyBaseLogger | false): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    genReqId: () => `${requestPrefix}-${(++requests).toString(36)}`,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2000 },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    return503OnClosing: true,
    // Errors the router raises before any handler (an over-long path segment, a bad URL) get the envelope too.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const e = errors.malformed(error.message);
      void reply.code(e.httpStatus).type('application/json; charset=utf-8').send({ stt: 'NOK', msg: e.msg });
    },
  });
  registerEnvelope(app);
  const openapi = collectOpenApi(app);

  app.get('/v2/openapi.json', { schema: { hide: true } as object }, async () => openapi());
  await app.register(async (scope) => fileRoutes(scope, s));
  await app.register(async (scope) => portalPlugin(scope, s));

  await app.register(async (v2) => {
    v2.addHook('onRequest', authenticator(s.admission, s.rateLimit));
    await profileRoutes(v2, s);
    await avatarRoutes(v2, s);
    await metaRoutes(v2, s);
    await executeRoutes(v2, s);
    await speechRoutes(v2, s);
  });
  return app;
}
