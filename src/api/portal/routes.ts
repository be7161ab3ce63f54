import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NEW_AVATAR_DEFAULTS } from '../../domain/catalog.ts';
import { AVATAR_FEATURES, INPUT_TYPES, PLATFORMS, TEMPLATES } from '../../model/product.ts';
import { errors } from '../../domain/errors.ts';
import { avatarObject, listObject } from '../avatar-wire.ts';
import { ok, withFailure } from '../envelope.ts';
import { baseUrl } from '../routes/avatars.ts';
import { speechBody, voicesBody } from '../routes/speech.ts';
import type { Services } from '../services.ts';
import { sessionCookie } from './cookies.ts';
import { checkOrigin, sessionGuard } from './session.ts';

type P = Record<string, string>;
const PREFIX = '/portal/api';

function credentials(body: unknown): { email: string; password: string } {
  const b = body as { email?: unknown; password?: unknown } | null;
  if (typeof b !== 'object' || b === null || typeof b.email !== 'string' || typeof b.password !== 'string') {
    throw errors.validation('send a JSON object with "email" and "password" strings');
  }
  return { email: b.email, password: b.password };
}

/** The one file part of an upload form, refused when it is missing or over the limit. */
async function uploadedFile(request: FastifyRequest, maxBytes: number): Promise<Uint8Array> {
  if (!request.isMultipart()) throw errors.noFile();
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
  if (!part || part.fieldname !== 'file') throw errors.noFile();
  const data = await part.toBuffer();
  if (part.file.truncated) throw errors.fileInput(`file larger than ${maxBytes} bytes`);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

const secure = (request: FastifyRequest) => request.protocol === 'https';

/**
 * The JSON endpoints the portal's pages call. Everything after sign-in is the same domain call as
 * the /v2 route, for the session's account; errors come in the same envelope.
 */
export async function portalApiRoutes(app: FastifyInstance, s: Services) {
  const { portal, avatars, accounts, speech } = s;

  app.post(`${PREFIX}/login`, async (request, reply: FastifyReply) => {
    checkOrigin(request);
    const { email, password } = credentials(request.body);
    const session = await portal.login(email, password, request.ip);
    void reply.header('set-cookie', sessionCookie(session.sessionId, Math.floor((session.expiresAt - Date.now()) / 1000), secure(request)));
    return ok({ email: session.email, account: session.account.name, csrf: session.csrf });
  });

  // Answers carry secrets (a new key, the CSRF token): no cache may keep them.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith(PREFIX)) void reply.header('cache-control', 'no-store');
  });

  await app.register(async (signedIn) => {
    await signedIn.register(multipart);
    signedIn.addHook('onRequest', sessionGuard(portal));
    const account = (request: FastifyRequest) => request.portalUser.account;
    const key = (request: FastifyRequest) => (request.params as P).key!;

    signedIn.get(`${PREFIX}/session`, async (request) => {
      const u = request.portalUser;
      return ok({ email: u.email, account: u.account.name, csrf: u.csrf });
    });
    signedIn.post(`${PREFIX}/logout`, async (request, reply) => {
      await portal.logout(request.portalSessionId);
      void reply.header('set-cookie', sessionCookie('', 0, secure(request)));
      return ok({});
    });

    signedIn.get(`${PREFIX}/profile`, async (request) => ok(await accounts.profile(account(request))));
    // What the upload form offers: the interface's words, the defaults, and the price of each input type.
    signedIn.get(`${PREFIX}/catalog`, async () =>
      ok({ input_types: INPUT_TYPES, platforms: PLATFORMS, templates: TEMPLATES, features: AVATAR_FEATURES, defaults: NEW_AVATAR_DEFAULTS, prices: avatars.prices() }),
    );
    signedIn.get(`${PREFIX}/keys`, async (request) => ok({ keys: await portal.keys(account(request)) }));
    signedIn.post(`${PREFIX}/keys`, async (request) => {
      const k = await portal.createKey(account(request));
      return ok({ key: k.publicKey, secret: k.secret });
    });
    signedIn.post(`${PREFIX}/keys/:key/revoke`, async (request) => {
      await portal.revokeKey(account(request), key(request));
      return ok({});
    });

    const create = async (request: FastifyRequest) => {
      const p = request.params as P;
      const upload = await uploadedFile(request, s.maxUploadBytes);
      return ok({ key: await avatars.create(account(request), { inputType: p.input_type!, platforms: p.platforms!, template: p.template!, features: p.features ?? '' }, upload) });
    };
    signedIn.post(`${PREFIX}/avatars/new/:input_type/:platforms/:template`, create);
    signedIn.post(`${PREFIX}/avatars/new/:input_type/:platforms/:template/:features`, create);

    const list = async (request: FastifyRequest) => {
      const p = request.params as P;
      const page = listObject(await avatars.list(account(request), p.type, p.code));
      return ok({ ...page, models: page.models.map(withFailure) });
    };
    signedIn.get(`${PREFIX}/avatars`, list);
    signedIn.get(`${PREFIX}/avatars/list/:type/:code`, list);
    // Status, with the reason of a failure and the platforms the avatar was made for (what it offers for download).
    signedIn.get(`${PREFIX}/avatars/:key`, async (request) => {
      const [status, platforms] = await Promise.all([avatars.status(account(request), key(request)), avatars.platforms(account(request), key(request))]);
      return ok({ ...withFailure(avatarObject(status)), platforms });
    });
    signedIn.get(`${PREFIX}/avatars/:key/download/:type`, async (request) =>
      ok(await avatars.downloadLink(account(request), key(request), (request.params as P).type, baseUrl(request, s))),
    );
    signedIn.get(`${PREFIX}/avatars/:key/preview/:filetype`, async (request) =>
      ok(await avatars.previewLink(account(request), key(request), (request.params as P).filetype, baseUrl(request, s))),
    );
    signedIn.post(`${PREFIX}/avatars/:key/meta`, async (request) => {
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw errors.validation('the body must be a JSON object whose values are strings');
      await avatars.setMeta(account(request), key(request), body as Record<string, unknown>);
      return ok({});
    });
    signedIn.post(`${PREFIX}/avatars/:key/meta/unset/:name`, async (request) => {
      await avatars.unsetMeta(account(request), key(request), (request.params as P).name!);
      return ok({});
    });
    signedIn.post(`${PREFIX}/avatars/:key/execute/blendshapes`, async (request) => ok({ key: await avatars.executeBlendshapes(account(request), key(request)) }));
    signedIn.post(`${PREFIX}/avatars/:key/delete`, async (request) => {
      await avatars.remove(account(request), key(request));
      return ok({});
    });
    signedIn.get(`${PREFIX}/speech/voices`, async () => ok(voicesBody(speech.voices())));
    signedIn.post(`${PREFIX}/speech/:mode`, async (request) =>
      ok(speechBody(await speech.tts(account(request), (request.params as P).mode!, request.body, baseUrl(request, s)))),
    );
  });
}
