import { SpeechError, SpeechErrorCode } from './errors.ts';

export type AudioFormat = 'wav' | 'ogg' | 'pcm' | 'mp3';

export interface SpeechModes {
  audio?: AudioFormat;
  json: boolean;
}

const AUDIO_FORMATS: readonly string[] = ['wav', 'ogg', 'pcm', 'mp3'] satisfies AudioFormat[];

/** Parses the `:mode` path segment, a comma list such as `mp3,json`; of several audio formats the last one wins. */
export function parseModes(mode: string): SpeechModes {
  const modes: SpeechModes = { json: false };
  const values = mode.split(',').map((v) => v.trim().toLowerCase());
  for (const value of values) {
    if (value === 'json') modes.json = true;
    else if (AUDIO_FORMATS.includes(value)) modes.audio = value as AudioFormat;
    else throw new SpeechError(SpeechErrorCode.invalidOption, `unknown speech mode "${value}"; expected wav, ogg, pcm, mp3 or json`);
  }
  return modes;
}
