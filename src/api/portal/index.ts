import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { portalApiRoutes } from './routes.ts';
import { portalStaticRoutes } from './static.ts';

/** The web portal at `/`: its page and files, and its JSON endpoints under /portal/api (docs/PORTAL.md). */
export async function portalPlugin(app: FastifyInstance, s: Services) {
  await portalStaticRoutes(app);
  await portalApiRoutes(app, s);
}
