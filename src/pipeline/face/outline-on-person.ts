/**
 * The face's outline where the landmark model put it off the person. On a turned face it can read the far side's
 * outline as far out as the near side's, on the background (p04-a: 0.08-0.19 face widths beyond the cheek); the fit
 * then widens the far cheek past the face, and the albedo finds the photo's hair and background along it. Such an
 * outline landmark takes its mirror partner's place in the head frame, mirrored across the face's middle, where that
 * partner lies on the person, and the face's points near it go along.
 */
import { isPersonAt, matteCell, type PersonMatte } from './person-matte.ts';
import { FACE_OVAL } from './face-regions.ts';
import { FACE_POINTS } from './pose.ts';

/**
 * A landmark is off the person when the matte calls it background and also this many of the matte network's cells
 * (see matteCell) towards the outline's centre: nearer, the matte's edge is no surer than the
 * landmark. On the test photos p04-a's far outline lies 7-15 cells out, p10-b's and p12-a's strays 2-3, the others' at
 * most 1.2; mirroring those too made the couple's head silhouette and identity worse.
 */
const CELLS = 2;
/**
 * The face's points near a moved landmark go along, weighted by a Gaussian of this spread (cm, head frame): moved
 * alone, p04-a's outline came in past the points inside it and folded the far cheek in a ridge Blender shows.
 */
const ALONG_CM = 1.5;

/**
 * `headLandmarks` (the head frame: x across the face, 0 in its middle) with each outline landmark that is off the
 * person in the photo (`landmarks`, in the matte's pixels) replaced by its partner's (`partners`) mirrored, where that
 * partner is on the person, and the face's other points moved along (see ALONG_CM); the same array when none is.
 */
export function outlineOnPerson(landmarks: ArrayLike<number>, headLandmarks: Float32Array, matte: PersonMatte, partners: Int32Array): Float32Array {
  let cx = 0, cy = 0;
  for (const i of FACE_OVAL) {
    cx += landmarks[i * 3] / FACE_OVAL.length;
    cy += landmarks[i * 3 + 1] / FACE_OVAL.length;
  }
  const reach = CELLS * matteCell(matte);
  const onPerson = (i: number) => {
    const x = landmarks[i * 3], y = landmarks[i * 3 + 1];
    const d = Math.hypot(cx - x, cy - y) || 1;
    return isPersonAt(matte, x, y) || isPersonAt(matte, x + ((cx - x) / d) * reach, y + ((cy - y) / d) * reach);
  };
  const off = FACE_OVAL.filter((i) => partners[i] !== i && !onPerson(i) && onPerson(partners[i]));
  if (off.length === 0) return headLandmarks;
  // Each off landmark's way to its partner's mirror image; the face's points go along by their Gaussian weights (their
  // sum capped at 1, so a point between two moves takes their mean).
  const moves = off.map((i) => {
    const j = partners[i];
    return { i, d: [-headLandmarks[j * 3] - headLandmarks[i * 3], headLandmarks[j * 3 + 1] - headLandmarks[i * 3 + 1], headLandmarks[j * 3 + 2] - headLandmarks[i * 3 + 2]] };
  });
  const out = headLandmarks.slice();
  for (let k = 0; k < FACE_POINTS; k++) {
    let sum = 0;
    const move = [0, 0, 0];
    for (const { i, d } of moves) {
      const r2 = (headLandmarks[k * 3] - headLandmarks[i * 3]) ** 2 + (headLandmarks[k * 3 + 1] - headLandmarks[i * 3 + 1]) ** 2 + (headLandmarks[k * 3 + 2] - headLandmarks[i * 3 + 2]) ** 2;
      const w = Math.exp(-r2 / (2 * ALONG_CM * ALONG_CM));
      sum += w;
      for (let c = 0; c < 3; c++) move[c] += w * d[c];
    }
    if (sum < 1e-6) continue;
    const share = Math.min(1, sum) / sum;
    for (let c = 0; c < 3; c++) out[k * 3 + c] += move[c] * share;
  }
  for (const i of off) {
    const j = partners[i];
    out.set([-headLandmarks[j * 3], headLandmarks[j * 3 + 1], headLandmarks[j * 3 + 2]], i * 3);
  }
  return out;
}
