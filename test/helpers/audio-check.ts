/** Independent readers of the formats the speech library writes, for the tests (not the product's own code). */

export function readRiffWav(bytes: Uint8Array): { sampleRate: number; channels: number; bits: number; samples: Int16Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const four = (o: number) => new TextDecoder().decode(bytes.subarray(o, o + 4));
  if (four(0) !== 'RIFF' || four(8) !== 'WAVE') throw new Error('not RIFF/WAVE');
  if (view.getUint32(4, true) !== bytes.length - 8) throw new Error('RIFF size does not match the file');
  let fmt: { sampleRate: number; channels: number; bits: number } | undefined;
  for (let o = 12; o + 8 <= bytes.length; ) {
    const size = view.getUint32(o + 4, true);
    if (four(o) === 'fmt ') {
      if (view.getUint16(o + 8, true) !== 1) throw new Error('not PCM');
      fmt = { channels: view.getUint16(o + 10, true), sampleRate: view.getUint32(o + 12, true), bits: view.getUint16(o + 22, true) };
    }
    if (four(o) === 'data') {
      if (!fmt) throw new Error('data before fmt');
      return { ...fmt, samples: readPcm16(bytes.subarray(o + 8, o + 8 + size)) };
    }
    o += 8 + size + (size & 1);
  }
  throw new Error('no data chunk');
}

export function readPcm16(bytes: Uint8Array): Int16Array {
  if (bytes.length % 2) throw new Error('odd PCM length');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Int16Array.from({ length: bytes.length / 2 }, (_, i) => view.getInt16(i * 2, true));
}

/** Walks the Ogg pages (checking capture patterns and CRCs) of a Vorbis stream: sample rate, channels, and samples from the last granule position. */
export function readOggVorbis(bytes: Uint8Array): { sampleRate: number; channels: number; samples: number; pages: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = 0;
  let pages = 0;
  let granule = 0;
  let first: Uint8Array | undefined;
  while (o < bytes.length) {
    if (new TextDecoder().decode(bytes.subarray(o, o + 4)) !== 'OggS') throw new Error(`no Ogg page at ${o}`);
    const segments = bytes[o + 26];
    const lacing = bytes.subarray(o + 27, o + 27 + segments);
    const bodyLength = lacing.reduce((a, b) => a + b, 0);
    const headerLength = 27 + segments;
    const page = bytes.slice(o, o + headerLength + bodyLength);
    const crc = new DataView(page.buffer).getUint32(22, true);
    page.fill(0, 22, 26);
    if (oggCrc(page) !== crc) throw new Error(`bad CRC on page ${pages}`);
    const g = view.getBigInt64(o + 6, true);
    if (g >= 0n) granule = Number(g);
    if (pages === 0) first = bytes.subarray(o + headerLength, o + headerLength + bodyLength);
    o += headerLength + bodyLength;
    pages++;
  }
  if (!first || first[0] !== 1 || new TextDecoder().decode(first.subarray(1, 7)) !== 'vorbis') throw new Error('no Vorbis identification header');
  const id = new DataView(first.buffer, first.byteOffset, first.byteLength);
  return { channels: first[11], sampleRate: id.getUint32(12, true), samples: granule, pages };
}

function oggCrc(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 24;
    for (let k = 0; k < 8; k++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

/** Walks MPEG audio Layer III frames (skipping an ID3v2 tag): sample rate, channels, frames and samples. */
export function readMp3Frames(bytes: Uint8Array): { sampleRate: number; channels: number; frames: number; samples: number } {
  let o = 0;
  if (new TextDecoder().decode(bytes.subarray(0, 3)) === 'ID3') {
    o = 10 + ((bytes[6] << 21) | (bytes[7] << 14) | (bytes[8] << 7) | bytes[9]);
  }
  const rates: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };
  const bitrates = {
    v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
    v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  };
  let frames = 0;
  let sampleRate = 0;
  let channels = 0;
  let samples = 0;
  while (o + 4 <= bytes.length) {
    if (bytes[o] !== 0xff || (bytes[o + 1] & 0xe0) !== 0xe0) throw new Error(`no frame sync at ${o}`);
    const version = (bytes[o + 1] >> 3) & 3;
    const layer = (bytes[o + 1] >> 1) & 3;
    if (layer !== 1 || version === 1) throw new Error('not MPEG Layer III');
    const bitrate = (version === 3 ? bitrates.v1 : bitrates.v2)[bytes[o + 2] >> 4] * 1000;
    sampleRate = rates[version][(bytes[o + 2] >> 2) & 3];
    const padding = (bytes[o + 2] >> 1) & 1;
    channels = bytes[o + 3] >> 6 === 3 ? 1 : 2;
    const perFrame = version === 3 ? 1152 : 576;
    const length = Math.floor(((perFrame / 8) * bitrate) / sampleRate) + padding;
    if (!bitrate || length <= 4) throw new Error('bad frame header');
    o += length;
    frames++;
    samples += perFrame;
  }
  return { sampleRate, channels, frames, samples };
}

/** RMS of samples [from, to) in [0, 1] full scale. */
export function rms(samples: Int16Array, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += (samples[i] / 32768) ** 2;
  return to > from ? Math.sqrt(sum / (to - from)) : 0;
}

export interface Mark {
  time: number;
  type: string;
  start?: number;
  end?: number;
  value: string;
}

export function parseMarks(data: Uint8Array): Mark[] {
  const text = new TextDecoder().decode(data);
  if (!text.endsWith('\n')) throw new Error('JSON lines must end with a newline');
  return text.trimEnd().split('\n').map((line) => JSON.parse(line) as Mark);
}

/**
 * Median fundamental frequency (Hz) of the voiced 40 ms frames of speech at `sampleRate`: autocorrelation
 * peak between 60 and 400 Hz, a frame counting as voiced when that peak holds half the frame's energy.
 */
export function medianF0(samples: Int16Array, sampleRate: number): number {
  const frame = Math.round(0.04 * sampleRate);
  const [minLag, maxLag] = [Math.floor(sampleRate / 400), Math.ceil(sampleRate / 60)];
  const found: number[] = [];
  for (let from = 0; from + frame + maxLag <= samples.length; from += frame / 2) {
    let energy = 0;
    for (let i = from; i < from + frame; i++) energy += samples[i] * samples[i];
    if (energy === 0 || Math.sqrt(energy / frame) < 0.02 * 32768) continue;
    let [best, bestLag] = [0, 0];
    for (let lag = minLag; lag <= maxLag; lag++) {
      let sum = 0;
      for (let i = from; i < from + frame; i++) sum += samples[i] * samples[i + lag];
      if (sum > best) [best, bestLag] = [sum, lag];
    }
    if (best > 0.5 * energy) found.push(sampleRate / bestLag);
  }
  found.sort((a, b) => a - b);
  return found[Math.floor(found.length / 2)] ?? 0;
}
