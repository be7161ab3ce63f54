import type { FastifyInstance } from 'fastify';
import { ok } from '../envelope.ts';
import { responses, route } from '../schemas.ts';
import type { Services } from '../services.ts';
import { baseUrl } from './avatars.ts';

export async function speechRoutes(app: FastifyInstance, s: Services) {
  app.post('/v2/speech/tts/:mode', { schema: route('Text or SSML to audio and/or a speech marks (visemes) file', 'speech', responses.tts, ['mode']) }, async (request) =>
    ok(await s.speech.tts(request.account, (request.params as { mode: string }).mode, request.body, baseUrl(request, s))),
  );
}
