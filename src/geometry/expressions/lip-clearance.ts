import { triangleBoxes } from '../mesh/box-grid.ts';
import { overlappingBoxPairs, type BoxPartners } from '../mesh/box-sweep.ts';
import { fanLiesFlat, fansOf, type Fans } from '../mesh/fans.ts';
import { gatherVec3 } from '../mesh/gather.ts';
import { withinReach } from '../mesh/near-points.ts';
import { smoothstep } from '../mesh/smoothstep.ts';
import { trianglesIntersect } from '../mesh/triangle-tests.ts';
import type { HeadTemplate } from '../template/types.ts';
import { mouthUnitOf, type Deltas, type ExpressionFrame } from './frame.ts';

/**
 * The avatars' closed lips meet (the neutral rests them together), and the mouth shapes move them by different
 * motions: the lower lip with the jaw, the upper one with the skin above it, each with its own falloff. Sheared or
 * pressed together, they cut through each other, or into the mouth bag behind them (`scripts/shape-crossings.ts` on
 * 2.0 before this: `jawForward`, `viseme_PP` and `polly_p` on 14 of the 18 test photos' heads, 178 of their 1,512
 * photo-shapes in all). Where a finished shape's lips cross, the crossing corners are first pushed back to the side
 * they start on (pushOut), which keeps the rest of the shape as made (the smile the fit puts back on the photo's
 * landmarks). What still crosses has its motion round it smoothed (PASSES: the shear goes, where the skin goes stays),
 * then, if that is not enough, taken back towards where the shape starts (STEPS), until nothing crosses: not each
 * other, the mouth bag or the teeth. `deltas` are changed in place (the head's only); `start` is where the shape starts
 * from, the head and the teeth.
 */
export function keepLipsClear(frame: ExpressionFrame, deltas: Deltas, start: { head: ArrayLike<number>; teeth: ArrayLike<number> }): void {
  const area = lipArea(frame);
  const { vertices, headCount } = area;
  const head = vertices.subarray(0, headCount), teeth = vertices.subarray(headCount);
  if (!movesAny(deltas.head, head) && !movesAny(deltas.teeth, teeth)) return;
  const { from, made, at } = area;
  gatherArea(area, start.head, start.teeth, from);
  gatherArea(area, deltas.head, deltas.teeth, made);
  for (let i = 0; i < at.length; i++) at[i] = from[i] + made[i];
  const already = crossingAtStart(area, start.head, from), known = { from, pairs: already.pairs };
  let crossing = crossingVertices(area, at, known);
  if (crossing.length === 0) return;
  const free = new Uint8Array(vertices.length);
  for (let i = 0; i < headCount; i++) free[i] = area.movable[i] && !already.vertices[i] ? 1 : 0;
  const work: RoundWork = { from, free, gap: GAP * frame.mouthUnit, depth: DEPTH * frame.mouthUnit, push: new Float64Array(at.length), pushes: new Uint16Array(vertices.length) };
  // First the crossing corners pushed apart, then the fans folded round a shared corner laid open, each of which
  // leaves the rest of the shape as made.
  crossing = bestRounds(area, at, known, crossing, pushOut, work);
  if (crossing.length > 0) crossing = bestRounds(area, at, known, crossing, unfoldFans, work);
  for (let i = 0; i < at.length; i++) made[i] = at[i] - from[i];
  if (crossing.length === 0) return setDeltas(deltas.head, head, made);
  const seeds = new Uint8Array(vertices.length), near = new Float64Array(vertices.length);
  const moved = new Float64Array(made.length), scratch = new Float64Array(made.length);
  const reach = FALLOFF * frame.mouthUnit;
  // Then the motion round what still crosses smoothed, which keeps where it goes (a corner still moves in) and takes
  // out the shear; then, where that is not enough, the smoothed motion taken back.
  for (const passes of PASSES) {
    for (const i of crossing) seeds[i] = 1;
    heldBack(from, seeds, reach, 1, free, near);
    moved.set(made);
    for (let pass = 0; pass < passes; pass++) smoothOnce(area, near, moved, scratch);
    for (let i = 0; i < at.length; i++) at[i] = from[i] + moved[i];
    crossing = crossingVertices(area, at, known);
    if (crossing.length === 0) return setDeltas(deltas.head, head, moved);
  }
  made.set(moved);
  for (const share of STEPS) {
    for (const i of crossing) seeds[i] = 1;
    heldBack(from, seeds, reach, share, free, near);
    for (let i = 0; i < vertices.length; i++) for (let k = 0; k < 3; k++) moved[3 * i + k] = made[3 * i + k] * (1 - near[i]);
    for (let i = 0; i < at.length; i++) at[i] = from[i] + moved[i];
    crossing = crossingVertices(area, at, known);
    if (crossing.length === 0) return setDeltas(deltas.head, head, moved);
  }
}

/** What the rounds of one shape share: where it starts, which vertices may move, the push's reach, and scratch. */
interface RoundWork {
  from: Float64Array;
  free: Uint8Array;
  gap: number;
  depth: number;
  push: Float64Array;
  pushes: Uint16Array;
}

/**
 * Rounds of `round` on `at` (in place), each given what crosses, stopping once none does or STALL rounds in a row have
 * not bettered the fewest crossing pairs (at most ROUNDS); `at` is left at the best round's, whose crossing is returned.
 */
function bestRounds(area: LipArea, at: Float64Array, known: { from: Float64Array; pairs: Uint8Array }, crossing: number[], round: (area: LipArea, at: Float64Array, crossing: number[], work: RoundWork) => void, work: RoundWork): number[] {
  const bestAt = Float64Array.from(at);
  let best = crossing;
  for (let n = 0, since = 0; n < ROUNDS && crossing.length > 0 && since < STALL; n++) {
    round(area, at, crossing, work);
    crossing = crossingVertices(area, at, known);
    if (crossing.length < best.length) (best = crossing), bestAt.set(at), (since = 0);
    else since++;
  }
  at.set(bestAt);
  return best;
}

/**
 * One round of pushing the crossing pairs apart (`crossing` as crossingVertices gives it). A corner of one triangle that
 * lies under the other (within its outline, by OUTLINE) but on the other side of its plane than where the shape starts
 * (`work.from`), less than `work.depth` deep, is moved back out to `work.gap` on its own side, and the other triangle
 * the other way, halved between them where both may move (`work.free`). A vertex pushed by several pairs takes their
 * mean, and the pushes spread to the vertices round (SPREAD). Pairs that share a corner are left to unfoldFans. `at`
 * changes in place.
 */
function pushOut(area: LipArea, at: Float64Array, crossing: number[], work: RoundWork): void {
  const { from, free, gap, depth, push, pushes } = work;
  push.fill(0);
  pushes.fill(0);
  for (let g = 0; g < crossing.length; g += 6) {
    if (sharedCorner(crossing, g) >= 0) continue;
    for (const [x, y] of [[g, g + 1], [g + 1, g]]) {
      const p = 3 * crossing[y], q = 3 * crossing[y + 2], r = 3 * crossing[y + 4];
      const ux = at[q] - at[p], uy = at[q + 1] - at[p + 1], uz = at[q + 2] - at[p + 2];
      const vx = at[r] - at[p], vy = at[r + 1] - at[p + 1], vz = at[r + 2] - at[p + 2];
      const [mx, my, mz] = planeNormal(at, p, q, r, normal);
      const len = Math.hypot(mx, my, mz);
      if (len === 0) continue;
      const nx = mx / len, ny = my / len, nz = mz / len;
      const [fx, fy, fz] = planeNormal(from, p, q, r, fromNormal);
      const uu = ux * ux + uy * uy + uz * uz, uv = ux * vx + uy * vy + uz * vz, vv = vx * vx + vy * vy + vz * vz, det = uu * vv - uv * uv;
      const yFree = +free[crossing[y]] + free[crossing[y + 2]] + free[crossing[y + 4]];
      for (let k = 0; k < 6; k += 2) {
        const v = crossing[x + k], c = 3 * v;
        const wx = at[c] - at[p], wy = at[c + 1] - at[p + 1], wz = at[c + 2] - at[p + 2];
        const side = wx * nx + wy * ny + wz * nz;
        const wu = wx * ux + wy * uy + wz * uz, wv = wx * vx + wy * vy + wz * vz;
        const b = (vv * wu - uv * wv) / det, e = (uu * wv - uv * wu) / det;
        const want = Math.sign((from[c] - from[p]) * fx + (from[c + 1] - from[p + 1]) * fy + (from[c + 2] - from[p + 2]) * fz) || 1;
        if (side * want >= 0 || side * want < -depth) continue;
        if (b < -OUTLINE || e < -OUTLINE || b + e > 1 + OUTLINE) continue;
        const move = want * gap - side, own = free[v] ? (yFree > 0 ? 0.5 : 1) : 0, other = yFree > 0 ? 1 - own : 0;
        if (own + other === 0) continue;
        add(push, pushes, v, move * own, nx, ny, nz);
        for (let m = 0; m < 6; m += 2) if (free[crossing[y + m]]) add(push, pushes, crossing[y + m], -move * other, nx, ny, nz);
      }
    }
  }
  for (let i = 0; i < pushes.length; i++) if (pushes[i] > 0) for (let k = 0; k < 3; k++) push[3 * i + k] /= pushes[i];
  // Spread round the pushed corners, which alone would stand out of their neighbours and fold them.
  const { neighbourStart, neighbours } = area;
  const spread = Float64Array.from(push);
  for (let pass = 0; pass < SPREAD; pass++) {
    for (let i = 0; i < pushes.length; i++) {
      if (pushes[i] > 0 || !free[i]) continue;
      const n = neighbourStart[i + 1] - neighbourStart[i];
      for (let k = 0; k < 3; k++) {
        let sum = 0;
        for (let e = neighbourStart[i]; e < neighbourStart[i + 1]; e++) sum += push[3 * neighbours[e] + k];
        spread[3 * i + k] = sum / n;
      }
    }
    push.set(spread);
  }
  for (let i = 0; i < at.length; i++) at[i] += push[i];
}

/**
 * One round of laying open the fans folded round a corner. Where two crossing triangles share a corner (p12-a's lip
 * corner on 1.6: the lower lip's corner triangle turns with the jaw, the upper rim's and the mouth bag's beside it
 * barely do), that corner moves FAN_STEP of the way to its neighbours' mean, if it may move (`work.free`).
 */
function unfoldFans(area: LipArea, at: Float64Array, crossing: number[], work: RoundWork): void {
  const { free, pushes: marked } = work;
  marked.fill(0);
  const { neighbourStart, neighbours } = area;
  for (let g = 0; g < crossing.length; g += 6) {
    const v = sharedCorner(crossing, g);
    if (v < 0 || !free[v] || marked[v]) continue;
    marked[v] = 1;
    const n = neighbourStart[v + 1] - neighbourStart[v];
    for (let k = 0; k < 3; k++) {
      let sum = 0;
      for (let e = neighbourStart[v]; e < neighbourStart[v + 1]; e++) sum += at[3 * neighbours[e] + k];
      at[3 * v + k] += FAN_STEP * (sum / n - at[3 * v + k]);
    }
  }
}

/** The corner the crossing pair at `g` (as crossingVertices lists it) shares, or -1. */
function sharedCorner(crossing: number[], g: number): number {
  for (let a = 0; a < 6; a += 2) for (let b = 1; b < 6; b += 2) if (crossing[g + a] === crossing[g + b]) return crossing[g + a];
  return -1;
}

/** The normal of the plane of triangle (p, q, r) at `at` (offsets times 3), by its winding, not normalised, into `out`. */
function planeNormal(at: Float64Array, p: number, q: number, r: number, out: number[]): number[] {
  const ux = at[q] - at[p], uy = at[q + 1] - at[p + 1], uz = at[q + 2] - at[p + 2];
  const vx = at[r] - at[p], vy = at[r + 1] - at[p + 1], vz = at[r + 2] - at[p + 2];
  out[0] = uy * vz - uz * vy;
  out[1] = uz * vx - ux * vz;
  out[2] = ux * vy - uy * vx;
  return out;
}

/** pushOut's normals, written again for each triangle. */
const normal = [0, 0, 0], fromNormal = [0, 0, 0];

function add(push: Float64Array, pushes: Uint16Array, v: number, by: number, nx: number, ny: number, nz: number): void {
  push[3 * v] += by * nx;
  push[3 * v + 1] += by * ny;
  push[3 * v + 2] += by * nz;
  pushes[v]++;
}

/**
 * Rounds of pushOut (then of unfoldFans) tried, stopping once STALL rounds in a row have not bettered the fewest
 * crossing pairs, before the shape's motion is smoothed or taken back round what still crosses. On the test photos'
 * 2.0 heads pushing alone cleared 123 of the 178 crossing shapes; a corner pushed out can push a neighbouring pair in,
 * so the count can rise.
 */
const ROUNDS = 30;
const STALL = 4;
/** The share of the way to its neighbours' mean a folded fan's corner moves per round (p12-a's lip corner on 1.6 opens by 0.3). */
const FAN_STEP = 0.1;
/** Passes spreading the pushes to the vertices round: pushed alone, the corners stood out and folded their neighbours. */
const SPREAD = 2;
/** Mouth units a pushed corner ends on its own side of the other triangle's plane, and the deepest corner pushed out. */
const GAP = 0.01;
const DEPTH = 1;
/** How far (in barycentric weight) outside the other triangle's outline a corner behind it still counts as under it. */
const OUTLINE = 0.5;

/**
 * The pairs that already cross where the shapes start (per pair, 1), and their vertices (per vertex, 1), found once per
 * start: a shape is not asked to undo them, and they move as it moves them (the templates' own closed mouths, which
 * the tests shape, have the mouth bag through the molars on 1.6).
 */
function crossingAtStart(area: LipArea, head: ArrayLike<number>, from: Float64Array): { pairs: Uint8Array; vertices: Uint8Array } {
  let marks = area.atStart.get(head);
  if (!marks) {
    marks = { pairs: new Uint8Array(area.pairs.length), vertices: new Uint8Array(area.vertices.length) };
    for (const v of crossingVertices(area, from, undefined, marks.pairs)) marks.vertices[v] = 1;
    area.atStart.set(head, marks);
  }
  return marks;
}

/** The head's and the teeth's values (xyz per vertex) at the area's vertices, in its own numbering, into `out`. */
function gatherArea(area: LipTopology, head: ArrayLike<number>, teeth: ArrayLike<number>, out: Float64Array): Float64Array {
  const { vertices, headCount } = area;
  gatherVec3(head, vertices.subarray(0, headCount), out);
  gatherVec3(teeth, vertices.subarray(headCount), out.subarray(3 * headCount));
  return out;
}

function setDeltas(deltas: Float32Array, vertices: Uint32Array, moved: Float64Array): void {
  for (let i = 0; i < vertices.length; i++) for (let k = 0; k < 3; k++) deltas[3 * vertices[i] + k] = moved[3 * i + k];
}

/** One pass: each vertex's motion moves `weight` of the way to its neighbours' mean (in place, through `scratch`). */
function smoothOnce(area: LipArea, weight: Float64Array, d: Float64Array, scratch: Float64Array): void {
  const { neighbourStart, neighbours } = area;
  for (let i = 0; i < weight.length; i++) {
    const w = weight[i], n = neighbourStart[i + 1] - neighbourStart[i];
    for (let k = 0; k < 3; k++) {
      if (w === 0 || n === 0) {
        scratch[3 * i + k] = d[3 * i + k];
        continue;
      }
      let sum = 0;
      for (let e = neighbourStart[i]; e < neighbourStart[i + 1]; e++) sum += d[3 * neighbours[e] + k];
      scratch[3 * i + k] = d[3 * i + k] + w * (sum / n - d[3 * i + k]);
    }
  }
  d.set(scratch);
}

/**
 * Passes of smoothing tried, one after another, each over the vertices of every crossing found so far and fading out
 * over FALLOFF from them; then the shares of the smoothed motion taken back the same way. A shape that still crosses
 * after the last is left as made. Taken back without smoothing first, p10-b's mouthLeft no longer moved its far
 * corner in (the observer's reading -0.051 -> -0.007).
 */
const PASSES = [4, 16, 64];
const STEPS = [0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1, 1, 1, 1, 1, 1];
/** Mouth units over which the share taken back fades out from the crossing vertices. */
const FALLOFF = 0.4;
/**
 * Mouth units from the lips' inner contour (on the template) within which the head is moved, and crossings round it
 * are looked for: rolled in (`mouthRollLower`), the lower lip's outer skin reaches the mouth bag 1.3-1.6 units from the
 * contour; within 1.6, p01-a's and p07-a's heads kept three crossing shapes.
 */
const AREA = 2.2;
/**
 * Mouth units between two triangles' boxes on an avatar's neutral within which a shape's crossing of them is looked
 * for. Before the lips were kept clear, 99 % of the test photos' shapes' crossing pairs lay within 0.17 units of each
 * other on their neutral, half of them touching (the closed lips). Found on the template's head instead (once per
 * template, not per avatar), they missed the crossings of 73 shapes: the avatars' closed lips lie nearer than the
 * template's.
 */
const NEAR = 0.25;
/**
 * As NEAR, between the head's triangles and the teeth's. At 1 mouth unit (as tried first, for a lip smoothed or held
 * back further than a shape's shear) the pairs were twenty times as many and the check took over a second a job; with
 * the push first, 0.25 clears the same shapes and keeps the teeth out of the lips (mouth-parts.test.ts).
 */
const TEETH_NEAR = 0.25;

function movesAny(deltas: Float32Array, vertices: Uint32Array): boolean {
  for (const v of vertices) if (deltas[3 * v] !== 0 || deltas[3 * v + 1] !== 0 || deltas[3 * v + 2] !== 0) return true;
  return false;
}

/** Per vertex of the area, `share` of the shape taken back: whole at the seeds, fading out over `reach` (cm) from them; none where not `free`. */
function heldBack(from: Float64Array, seeds: Uint8Array, reach: number, share: number, free: Uint8Array, out: Float64Array): void {
  const seedList: number[] = [];
  for (let i = 0; i < seeds.length; i++) if (seeds[i]) seedList.push(i);
  for (let i = 0; i < free.length; i++) {
    if (!free[i]) {
      out[i] = 0;
      continue;
    }
    let nearest = Infinity;
    for (const s of seedList) {
      const dx = from[3 * i] - from[3 * s], dy = from[3 * i + 1] - from[3 * s + 1], dz = from[3 * i + 2] - from[3 * s + 2];
      nearest = Math.min(nearest, dx * dx + dy * dy + dz * dz);
    }
    out[i] = share * (1 - smoothstep(Math.sqrt(nearest) / reach));
  }
}

/** The template's head round the lips (LipArea's triangles and vertices), found once per template. */
interface LipTopology {
  /** The triangles' corners: head vertices, then (from `headCount` on) teeth vertices. */
  vertices: Uint32Array;
  /** Per vertex, 1 where the clearing may move it: the head's within AREA of the contour (the others are corners of the triangles round them). */
  movable: Uint8Array;
  headCount: number;
  /** The triangles from this one on are the teeth's. */
  headTriangles: number;
  /** The triangles with a corner within AREA of the lips' inner contour, their corners in the area's own numbering. */
  triangles: Uint32Array;
  /** Per vertex i, its neighbours (in the area) `neighbours[neighbourStart[i]..neighbourStart[i + 1]]`. */
  neighbourStart: Uint32Array;
  neighbours: Uint32Array;
  /** The triangles round each vertex: a pair sharing only a corner whose fan lies flat does not cross. */
  fans: Fans;
}

/** The head round the lips on one avatar, with the pairs of its triangles a shape's crossing is looked for between. */
interface LipArea extends LipTopology {
  /** The pairs: per triangle t, its later partners `pairs[start[t]..start[t + 1]]`, sharing no edge with it. */
  start: Uint32Array;
  pairs: Uint32Array;
  /** Per pair, the corner its two triangles share, or -1. */
  sharing: Int32Array;
  /** Per vertex, whether its fan lies flat (2) or not (1) at the positions a check looks at, 0 until asked: written again for each check. */
  flat: Uint8Array;
  /** The triangles' boxes, written again for each shape looked at. */
  boxes: Float64Array;
  /** Per triangle, 1 where it is still where the shape starts: written again for each shape looked at. */
  still: Uint8Array;
  /** Per vertex (xyz), where the shape looked at starts, its motion and where it ends: written again for each. */
  from: Float64Array;
  made: Float64Array;
  at: Float64Array;
  /** Per start the shapes are made from (its head positions), the pairs crossing there: crossingAtStart. */
  atStart: WeakMap<ArrayLike<number>, { pairs: Uint8Array; vertices: Uint8Array }>;
}

const topologies = new WeakMap<HeadTemplate, LipTopology>();
const areas = new WeakMap<ExpressionFrame, LipArea>();

function lipTopology(template: HeadTemplate, rim: readonly number[]): LipTopology {
  let topology = topologies.get(template);
  if (topology) return topology;
  const p = template.head.positions;
  const reach = AREA * mouthUnitOf(p);
  const rimPoints = gatherVec3(p, rim);
  const vertices: number[] = [], triangles: number[] = [];
  let headCount = 0, headTriangles = 0;
  // Only the head's vertices within reach move: every triangle round one of them is in the area, so it is looked at.
  const movable: number[] = [];
  // The head's, then the teeth's: a lip held back must not go into them.
  for (const mesh of [template.head, template.parts.teeth]) {
    const q = mesh.positions, { indices } = mesh;
    const near = withinReach(q, rimPoints, reach);
    const local = new Int32Array(near.length).fill(-1);
    for (let t = 0; t < indices.length; t += 3) {
      if (!near[indices[t]] && !near[indices[t + 1]] && !near[indices[t + 2]]) continue;
      for (let k = 0; k < 3; k++) {
        const v = indices[t + k];
        if (local[v] < 0) (local[v] = vertices.push(v) - 1), movable.push(mesh === template.head && near[v] === 1 ? 1 : 0);
        triangles.push(local[v]);
      }
    }
    if (mesh === template.head) (headCount = vertices.length), (headTriangles = triangles.length / 3);
  }
  const around: Set<number>[] = vertices.map(() => new Set());
  for (let t = 0; t < triangles.length; t += 3) for (let k = 0; k < 3; k++) for (let m = 1; m < 3; m++) around[triangles[t + k]].add(triangles[t + ((k + m) % 3)]);
  const neighbourStart = new Uint32Array(vertices.length + 1);
  around.forEach((set, i) => (neighbourStart[i + 1] = neighbourStart[i] + set.size));
  topology = { vertices: Uint32Array.from(vertices), movable: Uint8Array.from(movable), headCount, headTriangles, triangles: Uint32Array.from(triangles), neighbourStart, neighbours: Uint32Array.from(around.flatMap((set) => [...set])), fans: fansOf(triangles, vertices.length) };
  topologies.set(template, topology);
  return topology;
}

function lipArea(frame: ExpressionFrame): LipArea {
  let area = areas.get(frame);
  if (area) return area;
  const topology = lipTopology(frame.template, frame.lipRim), { vertices, triangles } = topology;
  const at = gatherArea(topology, frame.fitted.head, frame.fitted.parts.teeth, new Float64Array(3 * vertices.length));
  const count = triangles.length / 3, margin = (NEAR * frame.mouthUnit) / 2;
  const boxes = triangleBoxes(at, 3, triangles);
  const teethMargin = TEETH_NEAR * frame.mouthUnit - margin;
  for (let b = 0; b < boxes.length; b++) {
    const grow = b / 6 < topology.headTriangles ? margin : teethMargin;
    boxes[b] += b % 6 < 3 ? -grow : grow;
  }
  const { start, pairs, sharing } = partnersApart(overlappingBoxPairs(boxes, topology.headTriangles), triangles, topology.headTriangles);
  area = { ...topology, start, pairs, sharing, flat: new Uint8Array(vertices.length), boxes, still: new Uint8Array(count), ...workSpace(vertices.length), atStart: new WeakMap() };
  areas.set(frame, area);
  return area;
}

function workSpace(vertexCount: number): Pick<LipArea, 'from' | 'made' | 'at'> {
  return { from: new Float64Array(3 * vertexCount), made: new Float64Array(3 * vertexCount), at: new Float64Array(3 * vertexCount) };
}

/** The pairs of triangles (`found`'s) that share no edge and are not both teeth (from `headTriangles` on), as their later partners. */
function partnersApart(found: BoxPartners, triangles: Uint32Array, headTriangles: number): { start: Uint32Array; pairs: Uint32Array; sharing: Int32Array } {
  const count = found.start.length - 1;
  const start = new Uint32Array(count + 1), pairs = new Uint32Array(found.partners.length), sharing = new Int32Array(found.partners.length);
  let n = 0;
  for (let i = 0; i < count; i++) {
    for (let e = found.start[i]; e < found.start[i + 1]; e++) {
      const j = found.partners[e];
      if (i >= headTriangles && j >= headTriangles) continue;
      let shared = 0, corner = -1;
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) if (triangles[3 * i + a] === triangles[3 * j + b]) (shared++), (corner = triangles[3 * i + a]);
      if (shared < 2) (sharing[n] = corner), (pairs[n++] = j);
    }
    start[i + 1] = n;
  }
  return { start, pairs: pairs.slice(0, n), sharing: sharing.slice(0, n) };
}

/**
 * The area's vertices (its own numbering, with repeats) on the pairs of its triangles that cut through each other at
 * `at`. Given where the shape starts (`since.from`) and the pairs crossing there, those are not counted, and a pair
 * whose corners are all still where they start is not looked at: it crosses there or not at all.
 */
function crossingVertices(area: LipArea, at: Float64Array, since?: { from: Float64Array; pairs: Uint8Array }, mark?: Uint8Array): number[] {
  const { triangles, start, pairs, still, sharing, flat, fans } = area;
  const boxes = triangleBoxes(at, 3, triangles, area.boxes);
  flat.fill(0);
  if (since) stillTriangles(triangles, at, since.from, still);
  else still.fill(0);
  const out: number[] = [];
  const first = [0, 0, 0], second = [0, 0, 0];
  for (let t = 0; t + 1 < start.length; t++) {
    const i = 6 * t;
    const x0 = boxes[i], y0 = boxes[i + 1], z0 = boxes[i + 2], x1 = boxes[i + 3], y1 = boxes[i + 4], z1 = boxes[i + 5], tStill = still[t];
    for (let e = start[t]; e < start[t + 1]; e++) {
      if (tStill & still[pairs[e]]) continue;
      const j = 6 * pairs[e];
      // Without branches: neighbours' boxes overlap along some axes and not others, past the branch predictor's guess.
      if ((+(x0 <= boxes[j + 3]) & +(boxes[j] <= x1) & +(y0 <= boxes[j + 4]) & +(boxes[j + 1] <= y1) & +(z0 <= boxes[j + 5]) & +(boxes[j + 2] <= z1)) === 0) continue;
      const a = 3 * t, b = 3 * pairs[e];
      if (since?.pairs[e]) continue;
      const corner = sharing[e];
      if (corner >= 0) {
        if (flat[corner] === 0) flat[corner] = fanLiesFlat(fans, triangles, at, corner) ? 2 : 1;
        if (flat[corner] === 2) continue;
      }
      for (let k = 0; k < 3; k++) {
        first[k] = 3 * triangles[a + k];
        second[k] = 3 * triangles[b + k];
      }
      if (!trianglesIntersect(at, first, second, TOUCH_EPS)) continue;
      for (let k = 0; k < 3; k++) out.push(triangles[a + k], triangles[b + k]);
      if (mark) mark[e] = 1;
    }
  }
  return out;
}

/** Per triangle, 1 where its corners are all at `from` (exactly), into `out`. */
function stillTriangles(triangles: Uint32Array, at: Float64Array, from: Float64Array, out: Uint8Array): void {
  for (let t = 0, c = 0; c < triangles.length; t++, c += 3) {
    let moved = 0;
    for (let k = 0; k < 3; k++) {
      const v = 3 * triangles[c + k];
      moved |= +(at[v] !== from[v]) | +(at[v + 1] !== from[v + 1]) | +(at[v + 2] !== from[v + 2]);
    }
    out[t] = moved ^ 1;
  }
}

/** Tolerance of the crossing test, as `countIntersectionsBetween`'s (mesh/checks.ts), so both find the same pairs. */
const TOUCH_EPS = 1e-6;
