import type { Vec3 } from '../../model/avatar.ts';

/** A head mesh's axes in its file, and the rotation into the service's frame (Y up, face along +Z). */
export interface HeadOrientation {
  /** Unit vector in file coordinates from the neck towards the top of the head. */
  up: Vec3;
  /** Unit vector in file coordinates, perpendicular to `up`, towards where the face looks. */
  front: Vec3;
  /** Row-major 3x3 rotation: service = rotation * file. */
  rotation: number[];
  /**
   * How clearly the face stands out: surface near the back of the head over surface near the nose
   * tip, times how alike the two sides are. Several for a head; near 1 or below means no direction
   * stood out (check by rendering).
   */
  contrast: number;
}

/** Horizontal directions tried, then refined around the best one. */
const COARSE_STEPS = 72;
const FINE_STEP_DEG = 1;
/** Depth of the surface slice taken at an extreme, as a fraction of the head's extent along that direction. */
const CAP_DEPTH = 0.07;
/** Only the top part of the mesh is searched for the face, so that shoulders in a scan do not count. */
const UPPER_PART = 0.65;
/** The tip search's answer is replaced by the nearby symmetry axis within this angle. */
const SYMMETRY_SNAP_DEG = 20;
/** A cut whose thinnest spread is under this fraction of its widest is taken as flat. */
const FLAT_CUT = 0.02;

/**
 * Finds which way a head mesh is turned, from its shape alone (positions indexed by triangles, welded:
 * positions shared between triangles, as OBJ stores them):
 * - up: from the open cut at the bottom (the boundary edges, weighted by length) towards the surface's
 *   centre; a closed mesh falls back to its longest axis, pointing away from the thin tail (the neck);
 * - front: the horizontal direction in which the surface ends in a small tip (the nose) while the
 *   opposite end is broad (the back of the head); ears stick out too, but in pairs, so they score low.
 * Meant to turn the scan roughly to the front for rendering; registration then aligns it exactly.
 */
export function detectHeadOrientation(positions: Float32Array, indices: Uint32Array): HeadOrientation {
  const tri = triangleCentroids(positions, indices);
  const centre = weightedMean(tri.centroids, tri.areas);
  const up = upDirection(positions, indices, tri, centre);

  // The upper part of the mesh, measured along up.
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < positions.length; i += 3) {
    const h = positions[i] * up[0] + positions[i + 1] * up[1] + positions[i + 2] * up[2];
    lo = Math.min(lo, h);
    hi = Math.max(hi, h);
  }
  const floor = hi - UPPER_PART * (hi - lo);
  const keep: number[] = [];
  for (let t = 0; t < tri.areas.length; t++) {
    if (dot3(tri.centroids, t, up) >= floor) keep.push(t);
  }

  const [e1, e2] = basisAround(up);
  const direction = (deg: number): Vec3 => {
    const r = (deg * Math.PI) / 180;
    return [0, 1, 2].map((k) => Math.cos(r) * e1[k] + Math.sin(r) * e2[k]) as Vec3;
  };
  // Cap areas by direction, remembered: the scores of neighbouring directions share them.
  const caps = new Map<number, number>();
  const cap = (deg: number) => {
    const key = Math.round((((deg % 360) + 360) % 360) * 1000);
    let area = caps.get(key);
    if (area === undefined) caps.set(key, (area = capArea(tri, keep, direction(deg))));
    return area;
  };
  // A nose: a small cap ahead, a broad one behind, and the sides (the ears) alike.
  const score = (deg: number) => {
    const left = cap(deg + 90), right = cap(deg - 90);
    return (cap(deg + 180) / Math.max(cap(deg), 1e-12)) * (Math.min(left, right) / Math.max(left, right, 1e-12));
  };
  let best = 0;
  let bestScore = -Infinity;
  for (let i = 0; i < COARSE_STEPS; i++) {
    const deg = (i * 360) / COARSE_STEPS;
    const s = score(deg);
    if (s > bestScore) [best, bestScore] = [deg, s];
  }
  const coarse = best;
  const half = 360 / COARSE_STEPS;
  for (let deg = coarse - half; deg <= coarse + half; deg += FINE_STEP_DEG) {
    const s = score(deg);
    if (s > bestScore) [best, bestScore] = [deg, s];
  }
  const front = direction(symmetryAxisNear(tri, keep, e1, e2, best));
  const right = cross(up, front);
  return { up, front, rotation: [...right, ...up, ...front], contrast: bestScore };
}

/**
 * A bilaterally symmetric head has its sagittal plane along a principal axis of its horizontal
 * spread: the axis (of the two, either way) nearest to the tip search's answer, when it is near.
 */
function symmetryAxisNear(tri: Triangles, keep: number[], e1: Vec3, e2: Vec3, deg: number): number {
  let sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0, total = 0;
  for (const t of keep) {
    const w = tri.areas[t], a = dot3(tri.centroids, t, e1), b = dot3(tri.centroids, t, e2);
    sa += w * a; sb += w * b; saa += w * a * a; sbb += w * b * b; sab += w * a * b; total += w;
  }
  const ma = sa / total, mb = sb / total;
  const caa = saa / total - ma * ma, cbb = sbb / total - mb * mb, cab = sab / total - ma * mb;
  const axis = (Math.atan2(2 * cab, caa - cbb) * 90) / Math.PI;
  const candidates = [0, 90, 180, 270].map((k) => axis + k);
  const off = (c: number) => Math.abs(((((c - deg) % 360) + 540) % 360) - 180);
  const nearest = candidates.reduce((x, y) => (off(y) < off(x) ? y : x));
  return off(nearest) <= SYMMETRY_SNAP_DEG ? nearest : deg;
}

interface Triangles {
  centroids: Float64Array;
  areas: Float64Array;
}

function triangleCentroids(positions: Float32Array, indices: Uint32Array): Triangles {
  const count = indices.length / 3;
  const centroids = new Float64Array(count * 3);
  const areas = new Float64Array(count);
  for (let t = 0; t < count; t++) {
    const a = indices[t * 3] * 3, b = indices[t * 3 + 1] * 3, c = indices[t * 3 + 2] * 3;
    const e: Vec3 = [positions[b] - positions[a], positions[b + 1] - positions[a + 1], positions[b + 2] - positions[a + 2]];
    const f: Vec3 = [positions[c] - positions[a], positions[c + 1] - positions[a + 1], positions[c + 2] - positions[a + 2]];
    const n = cross(e, f);
    areas[t] = Math.hypot(n[0], n[1], n[2]) / 2;
    for (let k = 0; k < 3; k++) centroids[t * 3 + k] = (positions[a + k] + positions[b + k] + positions[c + k]) / 3;
  }
  return { centroids, areas };
}

function upDirection(positions: Float32Array, indices: Uint32Array, tri: Triangles, centre: Vec3): Vec3 {
  const cut = boundaryEdges(positions, indices);
  if (cut.lengths.length > 0) {
    const cutCentre = weightedMean(cut.midpoints, cut.lengths);
    const towardsCentre: Vec3 = [centre[0] - cutCentre[0], centre[1] - cutCentre[1], centre[2] - cutCentre[2]];
    // A flat cut (the neck's): its normal is up. Otherwise the direction from the cut to the centre,
    // which leans back a little because the face sticks out in front.
    const { axis, flatness } = leastAxis(cut.midpoints, cut.lengths, cutCentre);
    const d = flatness < FLAT_CUT ? axis : towardsCentre;
    const sign = Math.sign(d[0] * towardsCentre[0] + d[1] * towardsCentre[1] + d[2] * towardsCentre[2]) || 1;
    const len = Math.hypot(d[0], d[1], d[2]);
    if (len > 0) return [(sign * d[0]) / len, (sign * d[1]) / len, (sign * d[2]) / len];
  }
  // Closed mesh: the longest axis of the surface, pointing away from its long thin tail (the neck).
  const axis = topAxis(covariance(tri.centroids, tri.areas, centre));
  let third = 0;
  for (let t = 0; t < tri.areas.length; t++) {
    const h = dot3(tri.centroids, t, axis) - (centre[0] * axis[0] + centre[1] * axis[1] + centre[2] * axis[2]);
    third += tri.areas[t] * h * h * h;
  }
  return third > 0 ? [-axis[0], -axis[1], -axis[2]] : axis;
}

/**
 * Midpoints and lengths of the edges used by only one triangle (none for a closed mesh). Vertices at
 * the same place count as one, so that seams split for UVs are not taken for cuts.
 */
function boundaryEdges(positions: Float32Array, indices: Uint32Array): { midpoints: Float64Array; lengths: Float64Array } {
  const n = positions.length / 3;
  const same = weldedIds(positions);
  const uses = new Map<number, number>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = same[indices[t + k]], b = same[indices[t + ((k + 1) % 3)]];
      const key = Math.min(a, b) * n + Math.max(a, b);
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  const midpoints: number[] = [];
  const lengths: number[] = [];
  for (const [key, count] of uses) {
    if (count !== 1) continue;
    const a = Math.floor(key / n) * 3, b = (key % n) * 3;
    lengths.push(Math.hypot(positions[b] - positions[a], positions[b + 1] - positions[a + 1], positions[b + 2] - positions[a + 2]));
    for (let k = 0; k < 3; k++) midpoints.push((positions[a + k] + positions[b + k]) / 2);
  }
  return { midpoints: Float64Array.from(midpoints), lengths: Float64Array.from(lengths) };
}

/** For each vertex the first vertex with exactly the same position. */
function weldedIds(positions: Float32Array): Uint32Array {
  const n = positions.length / 3;
  const order = Array.from({ length: n }, (_, i) => i);
  const p = positions;
  order.sort((i, j) => p[i * 3] - p[j * 3] || p[i * 3 + 1] - p[j * 3 + 1] || p[i * 3 + 2] - p[j * 3 + 2] || i - j);
  const out = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const i = order[k], prev = order[k - 1];
    const same = k > 0 && p[i * 3] === p[prev * 3] && p[i * 3 + 1] === p[prev * 3 + 1] && p[i * 3 + 2] === p[prev * 3 + 2];
    out[i] = same ? out[prev] : i;
  }
  return out;
}

/** Surface area within CAP_DEPTH of the extreme along `d`. */
function capArea(tri: Triangles, keep: number[], d: Vec3): number {
  let max = -Infinity, min = Infinity;
  for (const t of keep) {
    const h = dot3(tri.centroids, t, d);
    max = Math.max(max, h);
    min = Math.min(min, h);
  }
  const depth = CAP_DEPTH * (max - min);
  let area = 0;
  for (const t of keep) if (dot3(tri.centroids, t, d) > max - depth) area += tri.areas[t];
  return area;
}

function covariance(points: Float64Array, weights: Float64Array, centre: Vec3): Float64Array {
  const cov = new Float64Array(9);
  for (let t = 0; t < weights.length; t++) {
    const p = [0, 1, 2].map((k) => points[t * 3 + k] - centre[k]);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) cov[i * 3 + j] += weights[t] * p[i] * p[j];
  }
  return cov;
}

/** Top eigenvector of a symmetric positive semi-definite 3x3 matrix, by power iteration. */
function topAxis(m: Float64Array): Vec3 {
  let v: Vec3 = [0.6, 0.7, 0.4];
  for (let it = 0; it < 200; it++) {
    const w = [0, 1, 2].map((i) => m[i * 3] * v[0] + m[i * 3 + 1] * v[1] + m[i * 3 + 2] * v[2]);
    const len = Math.hypot(w[0], w[1], w[2]) || 1;
    v = [w[0] / len, w[1] / len, w[2] / len];
  }
  return v;
}

/** The direction of least spread of weighted points, and its spread relative to the largest (0 = flat). */
function leastAxis(points: Float64Array, weights: Float64Array, centre: Vec3): { axis: Vec3; flatness: number } {
  const cov = covariance(points, weights, centre);
  const trace = cov[0] + cov[4] + cov[8];
  // The least spread direction of C is the top one of trace * I - C.
  const flipped = cov.map((c, k) => (k % 4 === 0 ? trace - c : -c));
  const axis = topAxis(flipped);
  const top = topAxis(cov);
  const spread = (d: Vec3) => [0, 1, 2].reduce((sum, i) => sum + d[i] * (cov[i * 3] * d[0] + cov[i * 3 + 1] * d[1] + cov[i * 3 + 2] * d[2]), 0);
  return { axis, flatness: spread(axis) / Math.max(spread(top), 1e-30) };
}

function weightedMean(points: Float64Array, weights: Float64Array): Vec3 {
  const sum: Vec3 = [0, 0, 0];
  let total = 0;
  for (let t = 0; t < weights.length; t++) {
    for (let k = 0; k < 3; k++) sum[k] += weights[t] * points[t * 3 + k];
    total += weights[t];
  }
  return [sum[0] / total, sum[1] / total, sum[2] / total];
}

/** Two unit vectors perpendicular to `n` and to each other. */
function basisAround(n: Vec3): [Vec3, Vec3] {
  const helper: Vec3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const a = cross(n, helper);
  const la = Math.hypot(a[0], a[1], a[2]);
  const e1: Vec3 = [a[0] / la, a[1] / la, a[2] / la];
  return [e1, cross(n, e1)];
}

function dot3(points: Float64Array, i: number, d: Vec3): number {
  return points[i * 3] * d[0] + points[i * 3 + 1] * d[1] + points[i * 3 + 2] * d[2];
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
