import { createMp3Encoder, createOggEncoder } from 'wasm-media-encoders';
import type { AudioFormat } from './modes.ts';
import { encodeWav, pcmBytes } from './wav.ts';

export interface EncodedAudio {
  mimeType: string;
  extension: string;
  data: Uint8Array;
  sampleRate: number;
  durationMs: number;
}

/**
 * Samples of silence an MP3 decoder puts before the speech: LAME's encoder delay (576) plus the decoder's (529).
 * The stream has no gapless-playback header, so marks for MP3 audio are shifted by this much.
 */
export const MP3_DELAY_SAMPLES = 1105;

const MIME: Record<AudioFormat, string> = { wav: 'audio/wav', ogg: 'audio/ogg', pcm: 'audio/pcm', mp3: 'audio/mpeg' };

function toFloat(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i] / 32768;
  return out;
}

async function compress(format: 'ogg' | 'mp3', pcm: Int16Array, sampleRate: number): Promise<Uint8Array> {
  const samples = [toFloat(pcm)];
  // Encoders return views into their wasm memory, so each piece is copied before the next call.
  const parts: Uint8Array[] = [];
  if (format === 'mp3') {
    const encoder = await createMp3Encoder();
    encoder.configure({ channels: 1, sampleRate, bitrate: 48 });
    parts.push(encoder.encode(samples).slice(), encoder.finalize().slice());
  } else {
    const encoder = await createOggEncoder();
    encoder.configure({ channels: 1, sampleRate, vbrQuality: 4 });
    parts.push(encoder.encode(samples).slice(), encoder.finalize().slice());
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Encodes 16-bit mono samples: WAV (RIFF PCM), raw PCM (signed 16-bit LE), OGG Vorbis or MP3. */
export async function encodeAudio(format: AudioFormat, pcm: Int16Array, sampleRate: number): Promise<EncodedAudio> {
  const data =
    format === 'wav' ? encodeWav(pcm, sampleRate) : format === 'pcm' ? pcmBytes(pcm) : await compress(format, pcm, sampleRate);
  const samples = pcm.length + (format === 'mp3' ? MP3_DELAY_SAMPLES : 0);
  return { mimeType: MIME[format], extension: format, data, sampleRate, durationMs: Math.round((samples / sampleRate) * 1000) };
}
