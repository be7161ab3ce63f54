import { errors } from './errors.ts';
import { newKey } from './ids.ts';
import type { Account, Files } from './ports.ts';
import type { Accounts } from './accounts.ts';

/** What the speech library gives the domain (see src/speech). */
export interface Modes {
  audio?: 'wav' | 'ogg' | 'pcm' | 'mp3';
  json: boolean;
}
export interface Synthesizer {
  parseModes(mode: string): Modes;
  synthesize(
    req: { text: string; type?: 'text' | 'ssml'; voice?: string },
    modes: Modes,
  ): Promise<{ audio?: { mimeType: string; extension: string; data: Uint8Array }; marks?: { mimeType: string; data: Uint8Array } }>;
}

export const speechDir = (id: string) => `speech/${id}`;

/**
 * Text to speech: synthesised once per request, stored, and handed out as time-limited links like
 * downloads. It costs no points (docs/API.md); it needs the `tts` feature.
 */
export class Speech {
  constructor(
    private readonly accounts: Accounts,
    private readonly files: Files,
    private readonly engine: Synthesizer,
    private readonly linkTtl: number,
  ) {}

  async tts(account: Account, mode: string, body: unknown, baseUrl: string) {
    this.accounts.requireFeature(account, 'tts');
    const modes = this.engine.parseModes(mode);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw errors.validation('the body must be a JSON object {text, type, voice}');
    const { text, type, voice } = body as Record<string, unknown>;
    if (typeof text !== 'string') throw errors.validation('text must be a string');
    if (type !== undefined && type !== 'text' && type !== 'ssml') throw errors.validation('type must be "text" or "ssml"');
    if (voice !== undefined && typeof voice !== 'string') throw errors.validation('voice must be a string');
    const out = await this.engine.synthesize({ text, type, voice }, modes);
    const id = newKey();
    const ttl = this.linkTtl;
    const body200: Record<string, string | number> = { ttl };
    if (out.audio) {
      const path = `${speechDir(id)}/speech.${out.audio.extension}`;
      await this.files.put(path, out.audio.data);
      const location = await this.files.link(path, { ttl, fileName: `speech.${out.audio.extension}`, contentType: out.audio.mimeType, baseUrl });
      Object.assign(body200, { audio_type: out.audio.mimeType, audio_location: location, audioURL: location });
    }
    if (out.marks) {
      const path = `${speechDir(id)}/speech.marks`;
      await this.files.put(path, out.marks.data);
      const location = await this.files.link(path, { ttl, fileName: 'speech.marks', contentType: out.marks.mimeType, baseUrl });
      Object.assign(body200, { visemes_type: out.marks.mimeType, visemes_location: location, marksURL: location });
    }
    return body200;
  }
}
