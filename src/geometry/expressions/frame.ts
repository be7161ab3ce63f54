import type { Vec3 } from '../../model/avatar.ts';
import { applyMat3, fitSimilarity, type Similarity } from '../fit/similarity.ts';
import { add, dot, length, normalize, scale, sub, vertex } from '../mesh/vec.ts';
import { vertexNeighbours } from '../mesh/adjacency.ts';
import { BONE, PART_NAMES, type HeadTemplate, type MeshName } from '../template/types.ts';
import { jawBasisShare } from '../template/head-weights.ts';

/** The eyelid contour stays this much (relative to the eyeball's radius) outside the lids' sphere. */
const LID_REACH = 1.03;

/** An avatar's own geometry in the template's topology: head and part positions (cm). */
export interface FittedGeometry {
  head: Float32Array;
  parts: Record<string, Float32Array>;
}

/** Position deltas for every mesh that carries morphs. */
export type Deltas = Record<MeshName, Float32Array>;

/**
 * Where the shapes are computed: the fitted geometry, its pose relative to the template (a
 * similarity over the face vertices, to carry joints and directions over), the face's own
 * units and per-vertex masks of the template (which side, how much the jaw carries it).
 */
export interface ExpressionFrame {
  template: HeadTemplate;
  fitted: FittedGeometry;
  toFitted: Similarity;
  /** Template directions in the fitted frame (unit). */
  left: Vec3;
  up: Vec3;
  forward: Vec3;
  /** One fifth of this face's mouth width (cm): the unit of mouth motions. */
  mouthUnit: number;
  /** This face's eye distance over the template's: the unit of eye and brow motions (cm). */
  eyeUnit: number;
  /** Jaw weight of each head vertex (its share of the jaw bone). */
  jaw: Float32Array;
  /** Head vertices of the eye sockets (behind the eyelids) and of the mouth bag. */
  socket: Uint8Array;
  mouthBag: Uint8Array;
  /** Fitted joints. */
  jawPivot: Vec3;
  tonguePivot: Vec3;
  eyeCentres: { left: Vec3; right: Vec3 };
  eyeRadius: number;
  /**
   * Centres the eyelids turn about: behind each fitted eyelid contour, so that the whole contour
   * lies just outside a sphere of the eyeball's size (the fitted eyeball may sit a little off).
   */
  lidCentres: { left: Vec3; right: Vec3 };
  /** Head vertices on each eye opening's rim (the eyelid contour and, in 2.0, the points refined between). */
  lidRims: { left: number[]; right: number[] };
  /** Head vertices of the lids' skin next to each rim: its first ring on the lids' outer face (not the socket, not the lids' back). */
  lidSkin: { left: number[]; right: number[] };
  /**
   * Head vertices of the lids' back next to each rim: 2.0's lids have a thickness (the face towards the eyeball); 1.6's
   * have none (`thinLids`), and the socket's lining right behind the rim is their back.
   */
  lidBack: { left: number[]; right: number[] };
  thinLids: boolean;
  /** The inner lip contour at the mesh's resolution, in order: its points and, in 2.0, the points refined between. */
  lipRim: number[];
  /**
   * Whether the shapes are an avatar's own, finished, rather than the template's own (templateFrame), which the
   * expression fit reads as its basis in the simpler form the photos' neutral faces were fitted with. Finished:
   * - a closing upper lid's margin points that the fold check holds back close in full all the same, standing further
   *   out, where that makes no new crossing (closeWithoutFolds), so that the blinks leave no slit;
   * - a lip pushed forward off the teeth takes the surface round it along (keepLipsOffTeeth), so that the lips do not fold;
   * - the jaw's weight is the rig's, which reaches further back behind the jaw's angle (JAW_FADE) and further down the
   *   throat (THROAT_FADE).
   */
  finished: boolean;
}

/**
 * The template's own frame: its shapes computed on itself at rest, not finished (ExpressionFrame.finished). The
 * expression fit reads these shapes as its basis, and finished, every 2.0 head was fitted a little differently: with
 * the blinks closed ahead (twenty-fourth session), less like its photo (identity distance 0.4147 -> 0.4165); with the
 * lips' pushes off the teeth spread (thirty-seventh), the lift 0.0339 -> 0.0327 but the landmark error 0.0341 -> 0.0344
 * and p04-a's mouth gap 0.028 -> 0.035; with the rig's jaw weight (thirty-eighth), the observer failed three more shapes.
 */
export function templateFrame(template: HeadTemplate): ExpressionFrame {
  const fitted = { head: template.head.positions, parts: Object.fromEntries(PART_NAMES.map((p) => [p, template.parts[p].positions])) };
  return expressionFrame(template, fitted, false);
}

/** One fifth of the mouth's width (from corner 61 to corner 291) of the head at `positions` (cm): the unit of mouth motions. */
export function mouthUnitOf(positions: ArrayLike<number>): number {
  return length(sub(vertex(positions, 291), vertex(positions, 61))) / 5;
}

export function meshNames(): MeshName[] {
  return ['head', ...PART_NAMES];
}

export function fittedPositions(frame: Pick<ExpressionFrame, 'fitted'>, mesh: MeshName): Float32Array {
  return mesh === 'head' ? frame.fitted.head : frame.fitted.parts[mesh];
}

export function zeroDeltas(frame: ExpressionFrame): Deltas {
  const out: Partial<Deltas> = {};
  for (const m of meshNames()) out[m] = new Float32Array(fittedPositions(frame, m).length);
  return out as Deltas;
}

export function expressionFrame(template: HeadTemplate, fitted: FittedGeometry, finished = true): ExpressionFrame {
  for (const m of meshNames()) {
    const expected = m === 'head' ? template.head.positions.length : template.parts[m].positions.length;
    if (fittedPositions({ fitted }, m)?.length !== expected) throw new RangeError(`fitted ${m}: expected ${expected / 3} vertices`);
  }
  const toFitted = fitSimilarity(template.head.positions, fitted.head, Uint32Array.from({ length: template.faceVertexCount }, (_, i) => i));
  const place = (p: Vec3): Vec3 => add(scale(applyMat3(toFitted.rotation, p[0], p[1], p[2]), toFitted.scale), toFitted.translation);
  const turn = (d: Vec3): Vec3 => normalize(applyMat3(toFitted.rotation, d[0], d[1], d[2]));
  const at = (v: number) => vertex(fitted.head, v);
  const jaw = jawWeights(template, finished);
  const templateEyes = length(sub(template.eyes.left.centre, template.eyes.right.centre));
  // The fitted eyeballs' own centres: the mean of its vertices' (a sphere's) is biased, its bounds' middle is not.
  const eyeCentres = { left: boundsMiddle(fitted.parts.eyeLeft), right: boundsMiddle(fitted.parts.eyeRight) };
  const socket = flags(jaw.length, template.regions.eyeSocketLeft, template.regions.eyeSocketRight);
  const mouthBag = flags(jaw.length, template.regions.mouthBag);
  const forward = turn([0, 0, 1]);
  const { lidRims, lidSkin, lidBack, thinLids, lipRim } = rimsOf(template);
  const eyeRadius = template.eyes.left.radius * toFitted.scale;
  const lidCentre = (loop: readonly number[]): Vec3 => {
    const points = loop.map(at);
    const c = scale(points.reduce((s, p) => add(s, p), [0, 0, 0] as Vec3), 1 / points.length);
    const reach = eyeRadius * LID_REACH;
    const depth = Math.min(
      ...points.map((p) => {
        const r = sub(p, c);
        const ahead = dot(r, forward);
        return ahead - Math.sqrt(Math.max(0, reach * reach - (dot(r, r) - ahead * ahead)));
      }),
    );
    return add(c, scale(forward, depth));
  };
  return {
    template,
    fitted,
    toFitted,
    left: turn([1, 0, 0]),
    up: turn([0, 1, 0]),
    forward,
    mouthUnit: mouthUnitOf(fitted.head),
    eyeUnit: length(sub(eyeCentres.left, eyeCentres.right)) / templateEyes,
    jaw,
    socket,
    mouthBag,
    jawPivot: place(template.boneWorld[BONE.jaw]),
    tonguePivot: place(template.boneWorld[BONE.tongue]),
    eyeCentres,
    eyeRadius,
    lidCentres: { left: lidCentre(template.loops.leftEye), right: lidCentre(template.loops.rightEye) },
    lidRims,
    lidSkin,
    lidBack,
    thinLids,
    lipRim,
    finished,
  };
}

/**
 * Jaw weight of each head vertex: the rig's, or on the template's own frame (not finished) the expression fit's basis's
 * (jawBasisShare). The frame's per-vertex loops are module functions: a loop in expressionFrame, which runs once per
 * job, had the whole function compiled on stack again every job.
 */
function jawWeights(template: HeadTemplate, finished: boolean): Float32Array {
  const jaw = new Float32Array(template.head.positions.length / 3);
  const skin = template.skins.head, p = template.head.positions;
  for (let v = 0; v < jaw.length; v++) {
    for (let k = 0; k < 4; k++) if (skin.joints[4 * v + k] === BONE.jaw) jaw[v] += skin.weights[4 * v + k];
    if (!finished && jaw[v] > 0) jaw[v] *= jawBasisShare(vertex(p, v));
  }
  return jaw;
}

/** 1 for each of `n` vertices in any of the lists, else 0. */
function flags(n: number, ...lists: readonly (readonly number[])[]): Uint8Array {
  const out = new Uint8Array(n);
  for (const list of lists) for (const v of list) out[v] = 1;
  return out;
}

/** The middle of the points' bounds. */
function boundsMiddle(p: Float32Array): Vec3 {
  const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], p[i]);
    hi[i % 3] = Math.max(hi[i % 3], p[i]);
  }
  return scale(add(lo, hi), 0.5);
}

const rims = new WeakMap<HeadTemplate, Pick<ExpressionFrame, 'lidRims' | 'lidSkin' | 'lidBack' | 'thinLids' | 'lipRim'>>();

/** The eye openings' and the mouth's rims, found once per template (they depend on its topology alone). */
function rimsOf(template: HeadTemplate): Pick<ExpressionFrame, 'lidRims' | 'lidSkin' | 'lidBack' | 'thinLids' | 'lipRim'> {
  let out = rims.get(template);
  if (!out) {
    const neighbours = vertexNeighbours(template.head.positions.length / 3, template.head.indices);
    const lid = (loop: readonly number[]) => refinedLoop(neighbours, loop).sort((x, y) => x - y);
    const lidRims = { left: lid(template.loops.leftEye), right: lid(template.loops.rightEye) };
    const socket = new Set([...template.regions.eyeSocketLeft, ...template.regions.eyeSocketRight]);
    // The skin faces away from the eyeball; the 2.0 lids' back (their thickness, facing the eyeball) does not.
    const { positions, normals } = template.head;
    const facesOut = (v: number, eye: Vec3) => dot(sub(vertex(positions, v), eye), vertex(normals, v)) > 0;
    const nextTo = (rim: number[]) => {
      const onRim = new Set(rim);
      return [...new Set(rim.flatMap((v) => neighbours[v]))].filter((v) => !onRim.has(v)).sort((x, y) => x - y);
    };
    const ring = (rim: number[], eye: Vec3, out: boolean) => nextTo(rim).filter((v) => !socket.has(v) && facesOut(v, eye) === out);
    const eyes = template.eyes;
    const lidSkin = { left: ring(lidRims.left, eyes.left.centre, true), right: ring(lidRims.right, eyes.right.centre, true) };
    const thinLids = ring(lidRims.left, eyes.left.centre, false).length === 0;
    // A lid with no thickness has the socket's lining right behind its rim.
    const backOf = (rim: number[], eye: Vec3) => (thinLids ? nextTo(rim).filter((v) => socket.has(v)) : ring(rim, eye, false));
    const lidBack = { left: backOf(lidRims.left, eyes.left.centre), right: backOf(lidRims.right, eyes.right.centre) };
    out = { lidRims, lidSkin, lidBack, thinLids, lipRim: refinedLoop(neighbours, template.loops.lipsInner) };
    rims.set(template, out);
  }
  return out;
}

/**
 * A closed contour at the mesh's resolution, in order: its points and, in 2.0, the vertices refined
 * between neighbours on it (each the one vertex joined to both of two contour points that are not joined themselves).
 */
function refinedLoop(neighbours: number[][], loop: readonly number[]): number[] {
  return loop.flatMap((a, k) => {
    const b = loop[(k + 1) % loop.length];
    // Neighbours on the contour in 1.6; in 2.0 one refined vertex lies between them.
    return neighbours[a].includes(b) ? [a] : [a, ...neighbours[a].filter((v) => neighbours[b].includes(v))];
  });
}

/** A displacement given in template axes (left, up, forward), in the fitted frame. */
export function along(frame: ExpressionFrame, leftward: number, upward: number, forward: number): Vec3 {
  return add(add(scale(frame.left, leftward), scale(frame.up, upward)), scale(frame.forward, forward));
}
