import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errors } from '../../domain/errors.ts';

const WEB_ROOT = path.resolve(fileURLToPath(new URL('../../../web/', import.meta.url)));
/** three's package root (its `exports` hide package.json, so it is found from the main module). */
const THREE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.resolve('three'))), '..');
const FFLATE_BROWSER = path.resolve(path.dirname(fileURLToPath(import.meta.resolve('fflate'))), 'browser.js');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Resolves `rel` inside `root`, or nothing for paths that leave it, hidden files and unknown types. */
function inside(root: string, rel: string): string | undefined {
  const full = path.resolve(root, rel);
  if (!full.startsWith(root + path.sep) || rel.split('/').some((s) => s.startsWith('.')) || !TYPES[path.extname(full)]) return undefined;
  return full;
}

function sendFile(reply: FastifyReply, file: string | undefined, method: string, url: string) {
  if (!file || !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw errors.routeNotFound(method, url);
  return reply.type(TYPES[path.extname(file)]!).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(fs.createReadStream(file));
}

/**
 * The page's policy: scripts only from this origin plus the import map (allowed by its hash); images,
 * audio and downloads also from elsewhere because an S3 store hands out links to its own host.
 */
function contentSecurityPolicy(html: string): string {
  const map = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  const hash = crypto.createHash('sha256').update(map).digest('base64');
  return [
    "default-src 'self'", `script-src 'self' 'sha256-${hash}'`, "style-src 'self'", "img-src 'self' data: blob: https: http:",
    "media-src 'self' blob: https: http:", "connect-src 'self' blob: data: https: http:", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** The portal's page, its scripts and styles, and the browser builds of three and fflate from node_modules. */
export async function portalStaticRoutes(app: FastifyInstance) {
  const index = fs.readFileSync(path.join(WEB_ROOT, 'index.html'), 'utf8');
  const csp = contentSecurityPolicy(index);
  app.get('/', async (_request, reply) =>
    reply.type(TYPES['.html']!).header('content-security-policy', csp).header('cache-control', 'no-cache').header('x-frame-options', 'DENY').send(index),
  );
  app.get('/web/*', async (request, reply) => sendFile(reply, inside(WEB_ROOT, (request.params as { '*': string })['*']), request.method, request.url));
  // Only three's build and its example modules (controls, loaders), nothing else of the package.
  app.get('/vendor/three/*', async (request, reply) => {
    const rel = (request.params as { '*': string })['*'];
    const allowed = rel.startsWith('build/') || rel.startsWith('examples/jsm/');
    return sendFile(reply, allowed ? inside(THREE_ROOT, rel) : undefined, request.method, request.url);
  });
  app.get('/vendor/fflate.js', async (request, reply) => sendFile(reply, FFLATE_BROWSER, request.method, request.url));
}
