import { api } from '../api.js';

/** Speech marks are JSON lines; the viseme ones drive the mouth, in time order. */
export function visemeTimeline(text) {
  return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)).filter((m) => m.type === 'viseme').sort((a, b) => a.time - b.time);
}

/**
 * Synthesises `text` through the portal's speech endpoint (the service's TTS for this account), then
 * plays the audio and calls `onViseme(value)` as its marks come due. The audio clock leads; when the
 * browser refuses to play (no audio device, autoplay policy) the marks still run on the wall clock.
 */
export async function speak(text, onViseme, voice) {
  const reply = await api.post('/speech/wav,json', voice ? { text, voice } : { text });
  const [audioBlob, marksText] = await Promise.all([
    fetch(reply.audio_location).then((r) => r.blob()),
    fetch(reply.visemes_location).then((r) => r.text()),
  ]);
  const marks = visemeTimeline(marksText);
  const audio = new Audio(URL.createObjectURL(audioBlob));
  const started = performance.now();
  const playing = await audio.play().then(() => true, () => false);
  const end = (marks.at(-1)?.time ?? 0) + 300;
  return new Promise((resolve) => {
    let next = 0;
    const tick = () => {
      const wall = performance.now() - started;
      const now = playing && audio.currentTime > 0 ? audio.currentTime * 1000 : wall;
      while (next < marks.length && marks[next].time <= now) onViseme(marks[next++].value);
      if (audio.ended || (!playing && wall > end) || wall > end + 3000) {
        onViseme('sil');
        URL.revokeObjectURL(audio.src);
        return resolve({ marks: marks.length, audio: playing });
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}
