import type { FastifyInstance } from 'fastify';
import { ok } from '../envelope.ts';
import { responses, route } from '../schemas.ts';
import type { Services } from '../services.ts';

export async function profileRoutes(app: FastifyInstance, s: Services) {
  app.get('/v2/profile', { schema: route('Points, tier and features of the account', 'account', responses.profile) }, async (request) =>
    ok(await s.accounts.profile(request.account)),
  );
}
