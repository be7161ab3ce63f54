/**
 * A frame fixed to the face in the photo, so that hair measures do not depend on the head's roll or
 * size: t runs up the face from the chin (0) to the top of the face mesh (1, landmark 10); s runs across
 * it from the middle of the cheeks, in face widths, positive towards the image's right (the person's left).
 */
const CHIN = 152;
const FOREHEAD_TOP = 10;
const CHEEK_RIGHT = 234;
const CHEEK_LEFT = 454;
const EYE_OUTER_RIGHT = 33;
const EYE_OUTER_LEFT = 263;

export interface FaceFrame {
  /** Chin (pixels). */
  chin: [number, number];
  /** Middle of the cheeks (pixels). */
  centre: [number, number];
  /** Unit vector across the face, towards the image's right. */
  across: [number, number];
  /** Unit vector up the face, towards the crown. */
  up: [number, number];
  /** Chin to the top of the face mesh along `up` (pixels). */
  height: number;
  /** Cheek to cheek along `across` (pixels). */
  width: number;
}

export function faceFrame(landmarks: ArrayLike<number>): FaceFrame {
  const at = (i: number): [number, number] => [landmarks[i * 3], landmarks[i * 3 + 1]];
  // The eye line fixes the roll: it is the steadiest horizontal of a face.
  const [rx, ry] = at(EYE_OUTER_RIGHT);
  const [lx, ly] = at(EYE_OUTER_LEFT);
  const n = Math.hypot(lx - rx, ly - ry) || 1;
  const across: [number, number] = [(lx - rx) / n, (ly - ry) / n];
  const up: [number, number] = [across[1], -across[0]];
  const chin = at(CHIN);
  const [tx, ty] = at(FOREHEAD_TOP);
  const [ax, ay] = at(CHEEK_RIGHT);
  const [bx, by] = at(CHEEK_LEFT);
  return {
    chin,
    centre: [(ax + bx) / 2, (ay + by) / 2],
    across,
    up,
    height: Math.max(1, (tx - chin[0]) * up[0] + (ty - chin[1]) * up[1]),
    width: Math.max(1, Math.abs((bx - ax) * across[0] + (by - ay) * across[1])),
  };
}

/** Face-frame coordinates [s, t] of an image point. */
export function toFace(f: FaceFrame, x: number, y: number): [number, number] {
  const s = ((x - f.centre[0]) * f.across[0] + (y - f.centre[1]) * f.across[1]) / f.width;
  return [s, faceHeight(f, x, y)];
}

/** toFace's t alone, with no pair: the hair's volume fit asks it of every vertex. */
export function faceHeight(f: FaceFrame, x: number, y: number): number {
  return ((x - f.chin[0]) * f.up[0] + (y - f.chin[1]) * f.up[1]) / f.height;
}

/** Image point of face-frame coordinates [s, t]. */
export function fromFace(f: FaceFrame, s: number, t: number): [number, number] {
  // The centre's own t: the cheeks' midpoint lies above the chin.
  const tc = ((f.centre[0] - f.chin[0]) * f.up[0] + (f.centre[1] - f.chin[1]) * f.up[1]) / f.height;
  const sx = s * f.width;
  const ty = (t - tc) * f.height;
  return [f.centre[0] + sx * f.across[0] + ty * f.up[0], f.centre[1] + sx * f.across[1] + ty * f.up[1]];
}
