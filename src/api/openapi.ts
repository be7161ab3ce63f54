import type { FastifyInstance, RouteOptions } from 'fastify';

interface Collected {
  method: string;
  url: string;
  schema: Record<string, unknown>;
}

/**
 * OpenAPI 3.1 from the routes' own schemas, collected as they are registered. Call before routes are
 * added; the document is built on first request.
 */
export function collectOpenApi(app: FastifyInstance) {
  const routes: Collected[] = [];
  app.addHook('onRoute', (r: RouteOptions) => {
    const schema = r.schema as Record<string, unknown> | undefined;
    if (!schema || schema.hide) return;
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method: method.toLowerCase(), url: r.url, schema });
  });

  return function document() {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of routes) {
      const path = r.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      const params = (r.schema.params as { properties?: Record<string, object> } | undefined)?.properties ?? {};
      const named = [...r.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
      const response = r.schema.response as Record<string, object>;
      (paths[path] ??= {})[r.method] = {
        summary: r.schema.summary,
        tags: r.schema.tags,
        security: [{ ServiceDigest: [] }],
        parameters: named.map((name) => ({ name, in: 'path', required: true, schema: params[name] ?? { type: 'string' } })),
        responses: Object.fromEntries(
          Object.entries(response).map(([status, body]) => [
            status.toUpperCase(),
            {
              description: (body as { description?: string }).description ?? (status === '200' ? 'success' : 'failure: `msg` starts with the error code (docs/API.md)'),
              content: { 'application/json': { schema: body } },
            },
          ]),
        ),
      };
    }
    return {
      openapi: '3.1.0',
      info: { title: 'Avatar generation service', version: '2.4.0', description: 'The v2 interface. Error codes: docs/API.md.' },
      components: {
        securitySchemes: {
          ServiceDigest: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'ServiceDigest auth_method="sha256", auth_key="K", auth_nonce="N", auth_digest="D" (see docs/API.md)',
          },
        },
      },
      paths,
    };
  };
}
