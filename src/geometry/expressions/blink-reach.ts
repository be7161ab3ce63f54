/**
 * Where the blink reaches on the head: the upper lids' skin, which a closed eye turns towards the viewer. In the open
 * neutral it is a narrow band between the lashes and the crease, so that whatever the photo shows there (its lashes,
 * the lid's shine) is what a blink spreads over the eye.
 */
import type { HeadTemplate } from '../template/types.ts';
import { arkitShape } from './arkit.ts';
import { templateFrame } from './frame.ts';

const reaches = new WeakMap<HeadTemplate, Float32Array>();

/**
 * Per head vertex, how far the template's own eyeBlink moves it downwards, as a share of the most its eye's blink
 * moves any vertex (0..1; 0 where it does not move it down). Computed once per template.
 */
export function blinkReach(template: HeadTemplate): Float32Array {
  let reach = reaches.get(template);
  if (reach) return reach;
  const frame = templateFrame(template);
  const out = new Float32Array(template.head.positions.length / 3);
  for (const name of ['eyeBlinkLeft', 'eyeBlinkRight'] as const) {
    const d = arkitShape(frame, name).head;
    const down = new Float32Array(out.length);
    let most = 0;
    for (let v = 0; v < out.length; v++) {
      if (d[3 * v + 1] >= 0) continue;
      down[v] = Math.hypot(d[3 * v], d[3 * v + 1], d[3 * v + 2]);
      most = Math.max(most, down[v]);
    }
    for (let v = 0; v < out.length; v++) if (most > 0) out[v] = Math.max(out[v], down[v] / most);
  }
  reach = out;
  reaches.set(template, reach);
  return reach;
}
