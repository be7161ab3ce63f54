import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { has } from '../../domain/catalog.ts';
import { TEMPLATES } from '../../model/product.ts';
import { errors } from '../../domain/errors.ts';
import { avatarObject, listObject } from '../avatar-wire.ts';
import { failedWith, ok } from '../envelope.ts';
import { responses, route } from '../schemas.ts';
import type { Services } from '../services.ts';

type P = Record<string, string>;

/** The absolute base of links handed out in this request. */
export function baseUrl(request: FastifyRequest, s: Services) {
  return s.publicUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * New accepts the spec's path (`:input_type/:target_platform/:template/(:features)`) and, for clients
 * written before 2.1, the older `:input_type/:template/(:features)` with the default platform `maya`:
 * the two are told apart by whether the second segment is a template version.
 */
function newParams(p: P) {
  const [a, b, c, d] = [p.a!, p.b!, p.c, p.d];
  if (has(TEMPLATES, b) && d === undefined) return { inputType: a, platforms: 'maya', template: b, features: c ?? '' };
  if (c === undefined) throw errors.invalidTemplate('(missing)');
  return { inputType: a, platforms: b, template: c, features: d ?? '' };
}

async function readUpload(request: FastifyRequest, maxBytes: number): Promise<Uint8Array | undefined> {
  if (!request.isMultipart()) throw errors.noFile();
  for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 20 } })) {
    if (part.type !== 'file') continue;
    if (part.fieldname !== 'file') {
      part.file.resume();
      continue;
    }
    const data = await part.toBuffer();
    if (part.file.truncated) throw errors.fileInput(`file larger than ${maxBytes} bytes`);
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  return undefined;
}

export async function avatarRoutes(app: FastifyInstance, s: Services) {
  await app.register(multipart);

  const create = async (request: FastifyRequest) => {
    const req = newParams(request.params as P);
    const upload = await readUpload(request, s.maxUploadBytes);
    return ok({ key: await s.avatars.create(request.account, req, upload) });
  };
  const newSchema = route('Create an avatar from an uploaded photo or head-mesh archive', 'avatars', responses.key);
  app.post('/v2/avatar/new/:a/:b', { schema: { ...newSchema, params: { type: 'object' } } }, create);
  app.post('/v2/avatar/new/:a/:b/:c', { schema: { ...newSchema, params: { type: 'object' } } }, create);
  app.post('/v2/avatar/new/:a/:b/:c/:d', { schema: { ...newSchema, params: { type: 'object' } } }, create);

  app.get('/v2/avatar/:key/status', { schema: route('Status of an avatar or of an on-demand result', 'avatars', responses.status, ['key']) }, async (request) => {
    const avatar = avatarObject(await s.avatars.status(request.account, (request.params as P).key!));
    return avatar.status === 'error' ? failedWith(errors.pipelineFailed(avatar.error_code), avatar) : ok(avatar);
  });

  app.get('/v2/avatar/:key/delete', { schema: route('Delete an avatar with its results and files', 'avatars', responses.ok, ['key']) }, async (request) => {
    await s.avatars.remove(request.account, (request.params as P).key!);
    return ok({});
  });

  const download = async (request: FastifyRequest) => {
    const p = request.params as P;
    return ok(await s.avatars.downloadLink(request.account, p.key!, p.type, baseUrl(request, s)));
  };
  app.get('/v2/avatar/:key/download', { schema: route('Download link for the first platform of the avatar, or for a result', 'downloads', responses.link, ['key']) }, download);
  app.get('/v2/avatar/:key/download/:type', { schema: route('Download link for a package (maya, webviewer, unity) or a result', 'downloads', responses.link, ['key', 'type']) }, download);

  const preview = async (request: FastifyRequest) => {
    const p = request.params as P;
    return ok(await s.avatars.previewLink(request.account, p.key!, p.filetype, baseUrl(request, s)));
  };
  app.get('/v2/avatar/:key/preview', { schema: route('Link to the front render (jpg)', 'downloads', responses.link, ['key']) }, preview);
  app.get('/v2/avatar/:key/preview/:filetype', { schema: route('Link to the front render, jpg (solid) or png (transparent)', 'downloads', responses.link, ['key', 'filetype']) }, preview);

  const list = async (request: FastifyRequest) => {
    const p = request.params as P;
    return ok(listObject(await s.avatars.list(request.account, p.type, p.code)));
  };
  app.get('/v2/avatar/list', { schema: route('First page of the avatar list', 'avatars', responses.list) }, list);
  app.get('/v2/avatar/list/:type/:code', { schema: route('A later page (cursor) or the changes since a code (update)', 'avatars', responses.list, ['type', 'code']) }, list);
}
