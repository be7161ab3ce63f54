import type { MorphTarget } from '../../model/avatar.ts';
import type { Feature } from '../../model/product.ts';
import { BOUND_PART_NAMES, type BoundPartName, type HeadTemplate, type MeshName } from '../template/types.ts';
import { BOUND_HOSTS, boundHostVertices, caruncleSeatings, oneEyesTriangles, placeBoundPart, rebind, type BoundHostName } from '../template/bound-parts.ts';
import { fitSphere, type Sphere } from '../mesh/sphere-fit.ts';
import { keepOnEyeballs } from './on-eyeballs.ts';
import { pressCaruncles, skinAroundCaruncles } from './caruncle-press.ts';
import type { SurfaceBinding } from '../mesh/surface-binding.ts';
import { BASIC_SHAPES } from './animations.ts';
import { ARKIT_NAMES, LID_SHAPES, LIPS_PRESSED, MADE_ON, arkitShape, motions, type ArkitName } from './arkit.ts';
import { keepLipsClear } from './lip-clearance.ts';
import { keepLashesClear } from './lash-clearance.ts';
import { untangleAroundEyes } from './eye-untangle.ts';
import { expressionFrame, fittedPositions, meshNames, zeroDeltas, type Deltas, type ExpressionFrame, type FittedGeometry } from './frame.ts';
import { OCULUS_VISEMES, POLLY_VISEMES, tongueMotions, type VisemeRecipe } from './visemes.ts';

/** Names of the blendshapes `buildBlendshapes` makes for these features, in their order. */
export function blendshapeNames(features: readonly Feature[]): string[] {
  const arkit = features.includes('expressions') ? ARKIT_NAMES : features.includes('basic') ? ARKIT_NAMES.filter((n) => BASIC_SHAPES.includes(n)) : [];
  return [
    ...arkit,
    ...(features.includes('visemes') ? [...Object.keys(OCULUS_VISEMES), ...Object.values(POLLY_VISEMES).map((p) => p.name)] : []),
  ];
}

/**
 * Blendshapes computed on the avatar's own fitted geometry: the 52 ARKit shapes for
 * `expressions` (with `basic` alone, the few the basic clips drive: BASIC_SHAPES); the 15 Oculus
 * visemes and one shape per Amazon Polly viseme for `visemes`.
 * Every mesh (head, eyes, teeth, tongue, and the parts bound to the lids and eyeballs, which follow
 * them) gets the same names in the same order; a mesh a shape
 * does not move gets zero deltas for it.
 */
export function buildBlendshapes(
  template: HeadTemplate,
  fitted: FittedGeometry,
  features: readonly Feature[],
  allocate: (bytes: number) => ArrayBufferLike = (bytes) => new ArrayBuffer(bytes),
): Record<MeshName, MorphTarget[]> {
  return buildShapesAtRest(template, fitted, features, allocate, 0).morphs;
}

/**
 * As buildBlendshapes, with the upper lids resting `lidRest` of the way to closed along the avatar's own blinks:
 * `rest` holds each mesh's offset from the fitted geometry to that rest, each blink keeps what is left of its way (a
 * blink at 1 closes the lids where it did), and every other shape keeps its motion, from the new rest, with the
 * lashes placed and kept clear of the skin there. The blinks are made whatever the features; `morphs` holds the
 * features' shapes alone.
 */
export function buildShapesAtRest(
  template: HeadTemplate,
  fitted: FittedGeometry,
  features: readonly Feature[],
  allocate: (bytes: number) => ArrayBufferLike,
  lidRest: number,
): { morphs: Record<MeshName, MorphTarget[]>; rest?: Deltas } {
  const frame = expressionFrame(template, fitted);
  const arkit = new Map<ArkitName, Deltas>();
  const shapes: { name: string; deltas: Deltas }[] = [];
  const names = blendshapeNames(features);
  const extra = lidRest > 0 ? BLINKS.filter((n) => !names.includes(n)) : [];
  const arkitNames = ARKIT_NAMES.filter((name) => names.includes(name) || extra.includes(name));
  const recipes = features.includes('visemes') ? [...Object.values(OCULUS_VISEMES), ...Object.values(POLLY_VISEMES).map((p) => p.recipe)] : [];
  const slots = deltaSlots(frame, arkitNames.length + new Set(recipes).size, allocate);
  for (const name of arkitNames) shapes.push({ name, deltas: arkitOf(frame, arkit, name, slots()) });
  if (features.includes('visemes')) {
    const made = new Map<VisemeRecipe, Deltas>();
    const viseme = (recipe: VisemeRecipe) => {
      let d = made.get(recipe);
      if (!d) {
        d = mix(frame, recipe, arkit, slots());
        made.set(recipe, d);
      }
      return d;
    };
    for (const [name, recipe] of Object.entries(OCULUS_VISEMES)) shapes.push({ name, deltas: viseme(recipe) });
    for (const { name, recipe } of Object.values(POLLY_VISEMES)) shapes.push({ name, deltas: viseme(recipe) });
  }
  // The lashes, the tear lines and the caruncles follow their skin from where the neutral has them (placeBoundParts:
  // the lashes kept clear of it, the tear lines and caruncles laid on the fitted eyeballs).
  const hosts = { head: fitted.head, eyeLeft: fitted.parts.eyeLeft, eyeRight: fitted.parts.eyeRight };
  const bindings = { ...template.bound, eyelashes: rebind(template, 'eyelashes', fitted.parts.eyelashes, hosts), tearLine: rebind(template, 'tearLine', fitted.parts.tearLine, hosts), caruncle: rebind(template, 'caruncle', fitted.parts.caruncle, hosts) };
  const placed = Object.fromEntries(BOUND_PART_NAMES.map((name) => [name, placeBoundPart(template, name, hosts, bindings[name])])) as Record<BoundPartName, Float32Array>;
  const eyes = [fitSphere(hosts.eyeLeft), fitSphere(hosts.eyeRight)];
  const rested = lidRest > 0 ? lidsAtRest(frame, shapes, lidRest, bindings, { hosts, parts: placed, eyes }) : undefined;
  const from = rested ?? { hosts, parts: placed, eyes };
  clearLips(frame, shapes, from.hosts.head);
  // The blinks are left as made: their closing has its own fold check, and taken back a lid would open a slit.
  untangleAroundEyes(template, new Set(shapes.filter((s) => LID_SHAPES.includes(s.name as ArkitName)).map((s) => s.deltas)), from.hosts.head);
  for (const deltas of new Set(shapes.map((s) => s.deltas))) followHosts(frame, bindings, from, deltas);
  const kept = shapes.filter((s) => !extra.includes(s.name as ArkitName));
  // Loops, not callbacks made per avatar: their optimised code died with them, compiled again every job.
  const morphs = {} as Record<MeshName, MorphTarget[]>;
  for (const mesh of meshNames()) {
    const targets: MorphTarget[] = [];
    for (const { name, deltas } of kept) targets.push({ name, deltas: deltas[mesh] });
    morphs[mesh] = targets;
  }
  return { morphs, rest: rested?.offset };
}

/**
 * Each shape's lips kept clear of each other (lip-clearance.ts) from `head`, where the shapes start. A shape made for
 * use on another one (MADE_ON) is judged on it: it takes over what the clearing took back from that one, so that the
 * two together are as made, and is cleared from there.
 */
function clearLips(frame: ExpressionFrame, shapes: { name: string; deltas: Deltas }[], head: Float32Array): void {
  const madeOn = shapes.flatMap(({ name, deltas }) => {
    const base = MADE_ON[name as ArkitName];
    const under = base && shapes.find((s) => s.name === base)?.deltas;
    return under ? [{ deltas, under, made: under.head.slice() }] : [];
  });
  const onOthers = new Set(madeOn.map((m) => m.deltas));
  const teeth = frame.fitted.parts.teeth;
  for (const deltas of new Set(shapes.map((s) => s.deltas))) if (!onOthers.has(deltas)) keepLipsClear(frame, deltas, { head, teeth });
  for (const { deltas, under, made } of madeOn) {
    for (let i = 0; i < made.length; i++) deltas.head[i] += made[i] - under.head[i];
    keepLipsClear(frame, deltas, { head: shifted(head, under.head), teeth: shifted(teeth, under.teeth) });
  }
}

/** Where the shapes start from: the lids' hosts and the parts bound to them. */
interface ShapeRest {
  hosts: Record<BoundHostName, Float32Array>;
  parts: Record<BoundPartName, Float32Array>;
  /** The eyeballs, left first (the eye shapes turn them about their centres, so a shape leaves these as they are). */
  eyes: Sphere[];
}

export const BLINKS: readonly ArkitName[] = ['eyeBlinkLeft', 'eyeBlinkRight'];

/** The lid parts laid on the eyeballs, which the shapes keep on them (on-eyeballs.ts). */
const ON_EYEBALLS: readonly BoundPartName[] = ['tearLine', 'caruncle'];

/**
 * The lids' rest: `share` of both blinks on the hosts (their deltas keep the rest of their way, in place), the bound
 * parts placed on the rested hosts, the lashes kept clear of the skin there and the tear lines and caruncles kept on
 * the eyeballs; `offset` is every mesh's from the fitted geometry (`fitted.parts`: the bound parts there).
 */
function lidsAtRest(frame: ExpressionFrame, shapes: { name: string; deltas: Deltas }[], share: number, bindings: Record<BoundPartName, SurfaceBinding>, fitted: ShapeRest): ShapeRest & { offset: Deltas } {
  const rest = zeroDeltas(frame);
  for (const { name, deltas } of shapes) {
    if (!BLINKS.includes(name as ArkitName)) continue;
    for (const host of BOUND_HOSTS) takeShare(deltas[host], rest[host], share);
  }
  const hosts = { head: moved(frame, rest, 'head'), eyeLeft: moved(frame, rest, 'eyeLeft'), eyeRight: moved(frame, rest, 'eyeRight') };
  const parts = {} as Record<BoundPartName, Float32Array>;
  for (const name of BOUND_PART_NAMES) {
    const at = placeBoundPart(frame.template, name, hosts, bindings[name]);
    if (name === 'eyelashes') keepLashesClear(frame.template, hosts.head, at);
    if (ON_EYEBALLS.includes(name)) keepOnEyeballs(at, fitted.parts[name], fitted.eyes);
    difference(at, fitted.parts[name], rest[name]);
    parts[name] = at;
  }
  return { hosts, parts, eyes: fitted.eyes, offset: rest };
}

/**
 * Moves `share` of the deltas `d` into `out`, leaving the rest in `d`. The vertex loops of lidsAtRest, which runs once
 * a job, are module functions: in it they had the whole function compiled on stack again every job.
 */
function takeShare(d: Float32Array, out: Float32Array, share: number): void {
  for (let i = 0; i < d.length; i++) {
    out[i] += share * d[i];
    d[i] *= 1 - share;
  }
}

/** `a - b`, element by element, into `out`. */
function difference(a: Float32Array, b: Float32Array, out: Float32Array): void {
  for (let i = 0; i < a.length; i++) out[i] = a[i] - b[i];
}

/**
 * `count` sets of zero deltas, every mesh's, in one buffer from `allocate` (given a SharedArrayBuffer, the pipeline's
 * helper thread builds the shapes where the job's thread reads them, without copying them there afterwards). The
 * buffer may be the last avatar's (ReusedSharedMemory), so it is zeroed first: the visemes are summed into theirs.
 */
function deltaSlots(frame: ExpressionFrame, count: number, allocate: (bytes: number) => ArrayBufferLike): () => Deltas {
  const meshes = meshNames();
  const lengths = meshes.map((mesh) => fittedPositions(frame, mesh).length);
  const perSet = lengths.reduce((sum, n) => sum + n, 0);
  const memory = allocate(count * perSet * Float32Array.BYTES_PER_ELEMENT);
  new Float32Array(memory, 0, count * perSet).fill(0);
  let offset = 0;
  return () => {
    if (offset + perSet * Float32Array.BYTES_PER_ELEMENT > memory.byteLength) throw new RangeError('more delta sets than counted');
    const out: Partial<Deltas> = {};
    for (let k = 0; k < meshes.length; k++) {
      out[meshes[k]] = new Float32Array(memory, offset, lengths[k]);
      offset += lengths[k] * Float32Array.BYTES_PER_ELEMENT;
    }
    return out as Deltas;
  };
}

/**
 * The parts bound to the lids and eyeballs (lashes, corneas...) moved with them: their deltas set from their hosts'
 * (in place), the lashes kept out of the skin. A part whose host vertices the shape leaves where they are stays, with zero deltas, unplaced: most
 * shapes move neither lids nor eyes.
 */
function followHosts(frame: ExpressionFrame, bindings: Record<BoundPartName, SurfaceBinding>, rest: ShapeRest, deltas: Deltas): void {
  let hosts: Record<BoundHostName, Float32Array> | undefined;
  for (const name of BOUND_PART_NAMES) {
    const still = rest.parts[name];
    const out = deltas[name];
    const follows = movesAny(deltas, boundHostVertices(frame.template, name));
    const around = name === 'caruncle' ? skinAroundCaruncles(rest.hosts.head, frame.template.head.indices, still) : undefined;
    const pressed = around !== undefined && movesAnyOf(deltas.head, around.vertices);
    if (!follows && !pressed) {
      out.fill(0);
      continue;
    }
    hosts ??= { head: shifted(rest.hosts.head, deltas.head), eyeLeft: shifted(rest.hosts.eyeLeft, deltas.eyeLeft), eyeRight: shifted(rest.hosts.eyeRight, deltas.eyeRight) };
    const shaped = follows ? placeBoundPart(frame.template, name, hosts, bindings[name]) : still.slice();
    if (name === 'eyelashes') keepLashesClear(frame.template, hosts.head, shaped, { head: rest.hosts.head, lashes: still });
    if (ON_EYEBALLS.includes(name)) keepOnEyeballs(shaped, still, rest.eyes);
    if (around) {
      const head = { positions: hosts.head, indices: around.triangles };
      pressCaruncles(shaped, oneEyesTriangles(frame.template.parts.caruncle.indices), head, rest.eyes, () => caruncleSeatings(frame.template, head.positions, rest.eyes));
    }
    difference(shaped, still, out);
  }
}

function movesAny(deltas: Deltas, vertices: Record<BoundHostName, Uint32Array>): boolean {
  for (const host of BOUND_HOSTS) if (movesAnyOf(deltas[host], vertices[host])) return true;
  return false;
}

function movesAnyOf(d: Float32Array, vertices: Uint32Array): boolean {
  for (const v of vertices) if (d[3 * v] !== 0 || d[3 * v + 1] !== 0 || d[3 * v + 2] !== 0) return true;
  return false;
}

function moved(frame: ExpressionFrame, deltas: Deltas, host: BoundHostName): Float32Array {
  return shifted(fittedPositions(frame, host), deltas[host]);
}

function shifted(positions: Float32Array, d: Float32Array): Float32Array {
  const out = positions.slice();
  for (let i = 0; i < out.length; i++) out[i] += d[i];
  return out;
}

/** Share of the rest gap between the lips that a bilabial closes by raising the jaw. */
const BILABIAL_JAW = 0.5;

/**
 * The ARKit shape, made once per avatar (kept in `made`), in `out` if given (zero deltas: an output shape's own slot,
 * which the visemes mixed from it read before the lids' rest or the lips' clearing change it). A module function taking
 * its state, not a closure made per avatar: mix's optimized code inlined the closure it was called with, and was thrown
 * away with it after every job.
 */
function arkitOf(frame: ExpressionFrame, made: Map<ArkitName, Deltas>, name: ArkitName, out?: Deltas): Deltas {
  let d = made.get(name);
  if (!d) {
    d = arkitShape(frame, name, { made, out });
    made.set(name, d);
  }
  return d;
}

/** A viseme (in `out`, zero deltas): its ARKit shapes summed with their weights, then the tongue's own motion. */
function mix(frame: ExpressionFrame, recipe: VisemeRecipe, arkit: Map<ArkitName, Deltas>, out: Deltas): Deltas {
  for (const [name, weight] of Object.entries(recipe.arkit) as [ArkitName, number][]) {
    const d = arkitOf(frame, arkit, name);
    for (const mesh of meshNames()) {
      const target = out[mesh], source = d[mesh];
      for (let i = 0; i < target.length; i++) target[i] += source[i] * weight;
    }
  }
  if (recipe.lipsMeet) motions.jawUp(frame, out, BILABIAL_JAW);
  tongueMotions(frame, out, recipe);
  motions.keepLipsApart(frame, out, recipe.lipsMeet ? LIPS_PRESSED : undefined);
  if (recipe.lipsMeet) motions.sealLips(frame, out);
  return out;
}
