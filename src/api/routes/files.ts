import type { FastifyInstance } from 'fastify';
import { ServiceError, errors } from '../../domain/errors.ts';
import type { Services } from '../services.ts';

/**
 * Serves the embedded store's signed links without the Authorization header. A tampered or expired
 * link is refused with 403; a link to a deleted avatar finds nothing (404).
 */
export async function fileRoutes(app: FastifyInstance, s: Services) {
  const signer = s.linkSigner;
  if (!signer) return;
  app.get('/files/:token', { schema: { hide: true } as object }, async (request, reply) => {
    const check = signer.verify((request.params as { token: string }).token, Math.floor(Date.now() / 1000));
    if (!check.ok) throw new ServiceError(33201, 403, check.reason === 'expired' ? 'action not authorized: the link has expired' : 'action not authorized: the link is not valid');
    const file = await s.files.open(check.grant.path);
    if (!file) throw errors.avatarNotFound();
    const name = check.grant.fileName.replace(/[^A-Za-z0-9._@-]/g, '_');
    return reply
      .type(check.grant.contentType)
      .header('content-length', file.size)
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'private, no-store')
      .send(file.stream);
  });
}
