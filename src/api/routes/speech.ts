import type { FastifyInstance } from 'fastify';
import type { SpeechLinks } from '../../domain/speech.ts';
import { ok } from '../envelope.ts';
import { responses, route } from '../schemas.ts';
import type { Services } from '../services.ts';
import { baseUrl } from './avatars.ts';

export async function speechRoutes(app: FastifyInstance, s: Services) {
  app.post('/v2/speech/tts/:mode', { schema: route('Text or SSML to audio and/or a speech marks (visemes) file', 'speech', responses.tts, ['mode']) }, async (request) =>
    ok(speechBody(await s.speech.tts(request.account, (request.params as { mode: string }).mode, request.body, baseUrl(request, s)))),
  );
  app.get('/v2/speech/voices', { schema: route('The voices text to speech accepts (not in the spec: its voice list is "not shown")', 'speech', responses.voices) }, async () =>
    ok(voicesBody(s.speech.voices())),
  );
}

/** The voice catalog in the wire's snake_case. */
export function voicesBody(c: ReturnType<Services['speech']['voices']>) {
  return { default_voice: c.defaultVoice, voices: c.voices, cloud_names: c.cloudNames };
}

/** A speech request's links under the spec's names, each link twice (`audioURL`, `marksURL`: aliases, docs/API.md). */
export function speechBody(l: SpeechLinks) {
  return {
    ttl: l.ttl,
    ...(l.audio ? { audio_type: l.audio.type, audio_location: l.audio.location, audioURL: l.audio.location } : {}),
    ...(l.marks ? { visemes_type: l.marks.type, visemes_location: l.marks.location, marksURL: l.marks.location } : {}),
  };
}
