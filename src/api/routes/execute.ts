import type { FastifyInstance } from 'fastify';
import { errors } from '../../domain/errors.ts';
import { ok } from '../envelope.ts';
import { responses, route } from '../schemas.ts';
import type { Services } from '../services.ts';

type P = Record<string, string>;

const VERTEX_TYPES = new Set(['application/service-vertex', 'application/octet-stream']);

export async function executeRoutes(app: FastifyInstance, s: Services) {
  app.get('/v2/avatar/:key/execute/blendshapes', { schema: route('Export one OBJ per blendshape (needs expressions, status done)', 'execute', responses.key, ['key']) }, async (request) =>
    ok({ key: await s.avatars.executeBlendshapes(request.account, (request.params as P).key!) }),
  );

  // The vertex file is raw bytes: taken as a buffer whatever the declared type, then judged here.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: s.maxVertexBytes }, (_req, body, done) => done(null, body));
    scope.post('/v2/avatar/:key/execute/vertexdeform', {
      bodyLimit: s.maxVertexBytes,
      schema: route('Deform the vertices of an asset authored around the template head', 'execute', responses.key, ['key']),
    }, async (request) => {
      const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      if (type && !VERTEX_TYPES.has(type)) throw errors.unreadableInput(`content type ${type} (send application/service-vertex)`);
      const body = request.body;
      const bytes = Buffer.isBuffer(body) ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength) : new Uint8Array(0);
      return ok({ key: await s.avatars.executeVertexDeform(request.account, (request.params as P).key!, bytes) });
    });
  });
}
