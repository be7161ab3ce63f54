import { newKey } from './ids.ts';
import { speechAudioPath, speechMarksPath } from './layout.ts';
import type { Account, Files } from './ports.ts';
import type { Accounts } from './accounts.ts';

/** What the speech library gives the domain (see src/speech). */
export interface Modes {
  audio?: 'wav' | 'ogg' | 'pcm' | 'mp3';
  json: boolean;
}
/** A voice a client may name. */
export interface Voice {
  name: string;
  language: string;
  gender: string;
}
export interface Synthesizer {
  parseModes(mode: string): Modes;
  /** The default voice, the voices, and the other names (a cloud provider's) that speak with one of them. */
  voiceCatalog(): { defaultVoice: string; voices: Voice[]; cloudNames: (Voice & { voice: string })[] };
  /** Validates the request body itself (throwing errors with a spec code) and synthesises it. */
  synthesize(
    body: unknown,
    modes: Modes,
  ): Promise<{ audio?: { mimeType: string; extension: string; data: Uint8Array }; marks?: { mimeType: string; data: Uint8Array } }>;
}

/** A stored file of one speech request: its media type and a link that works until `ttl` runs out. */
export interface SpeechFile {
  type: string;
  location: string;
}

/** What a speech request made: the audio, the speech marks, or both, linked for `ttl` seconds. */
export interface SpeechLinks {
  ttl: number;
  audio?: SpeechFile;
  marks?: SpeechFile;
}

/**
 * Text to speech: synthesised once per request, stored, and handed out as time-limited links like
 * downloads. It costs no points (docs/API.md); it needs the `tts` feature.
 */
export class Speech {
  constructor(
    private readonly accounts: Accounts,
    private readonly files: Pick<Files, 'link' | 'put'>,
    private readonly engine: Synthesizer,
    private readonly linkTtl: number,
  ) {}

  /** What a client may send as `voice`; listing them needs no feature, so that a client can offer them before speaking. */
  voices() {
    return this.engine.voiceCatalog();
  }

  async tts(account: Account, mode: string, body: unknown, baseUrl: string): Promise<SpeechLinks> {
    this.accounts.requireFeature(account, 'tts');
    const out = await this.engine.synthesize(body, this.engine.parseModes(mode));
    const id = newKey();
    const ttl = this.linkTtl;
    const links: SpeechLinks = { ttl };
    if (out.audio) {
      const path = speechAudioPath(id, out.audio.extension);
      await this.files.put(path, out.audio.data);
      links.audio = { type: out.audio.mimeType, location: await this.files.link(path, { ttl, fileName: `speech.${out.audio.extension}`, contentType: out.audio.mimeType, baseUrl }) };
    }
    if (out.marks) {
      const path = speechMarksPath(id);
      await this.files.put(path, out.marks.data);
      links.marks = { type: out.marks.mimeType, location: await this.files.link(path, { ttl, fileName: 'speech.marks', contentType: out.marks.mimeType, baseUrl }) };
    }
    return links;
  }
}
