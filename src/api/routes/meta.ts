import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../domain/errors.ts';
import { ok } from '../envelope.ts';
import { responses, route } from '../schemas.ts';
import type { Services } from '../services.ts';

type P = Record<string, string>;

export async function metaRoutes(app: FastifyInstance, s: Services) {
  const get = async (request: FastifyRequest) => {
    const p = request.params as P;
    const meta = await s.avatars.getMeta(request.account, p.key!, p.name);
    // The spec's sample carries the array in `meta`, its field table in `models`: both are sent.
    return ok({ meta, models: meta });
  };
  app.get('/v2/avatar/:key/meta/get', { schema: route('All meta entries of an avatar', 'meta', responses.meta, ['key']) }, get);
  app.get('/v2/avatar/:key/meta/get/:name', { schema: route('One meta entry of an avatar', 'meta', responses.meta, ['key', 'name']) }, get);

  app.get('/v2/avatar/:key/meta/set/:name/:value', { schema: route('Set one meta entry (replaces one of the same name)', 'meta', responses.ok, ['key', 'name', 'value']) }, async (request) => {
    const p = request.params as P;
    await s.avatars.setMeta(request.account, p.key!, { [p.name!]: p.value! });
    return ok({});
  });

  app.post('/v2/avatar/:key/meta/set', { schema: route('Set several meta entries from a JSON object of strings', 'meta', responses.ok, ['key']) }, async (request) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw errors.validation('the body must be a JSON object whose values are strings');
    await s.avatars.setMeta(request.account, (request.params as P).key!, body as Record<string, unknown>);
    return ok({});
  });

  const unset = async (request: FastifyRequest) => {
    const p = request.params as P;
    await s.avatars.unsetMeta(request.account, p.key!, p.name!);
    return ok({});
  };
  const unsetSchema = route('Remove a meta entry (GET and POST are both accepted)', 'meta', responses.ok, ['key', 'name']);
  app.get('/v2/avatar/:key/meta/unset/:name', { schema: unsetSchema }, unset);
  app.post('/v2/avatar/:key/meta/unset/:name', { schema: unsetSchema }, unset);
}
