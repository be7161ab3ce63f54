import type { MeshData, Vec3 } from '../../model/avatar.ts';
import { keepLashesClear } from '../expressions/lash-clearance.ts';
import { untangle } from '../fit/untangle.ts';
import { MeshBuilder } from '../mesh/builder.ts';
import { vertexNormals } from '../mesh/normals.ts';
import { bindToSurface, nearestTriangle, placeBound, type BindingHost, type SurfaceBinding } from '../mesh/surface-binding.ts';
import { centroid, vertex } from '../mesh/vec.ts';
import { fitSphere, type Sphere } from '../mesh/sphere-fit.ts';
import { addCaruncle, CARUNCLE_SEATS, caruncleOn } from './caruncle.ts';
import { firstClearOfHead } from './clear-of-head.ts';
import { singleBoneRow } from './head-weights.ts';
import { addCornea } from './cornea.ts';
import { addLashCard, type LidName } from './eyelashes.ts';
import { lidRims } from './lid-rim.ts';
import { addTearLine, TEAR_SHIFTS, tearLinePoints } from './tear-line.ts';
import { BONE, type BoundPartName, type BoundResolution, type EyeInfo, type HeadTemplate } from './types.ts';

/** The meshes bound parts hold to, in the order of `SurfaceBinding.host`. */
export const BOUND_HOSTS = ['head', 'eyeLeft', 'eyeRight'] as const;
export type BoundHostName = (typeof BOUND_HOSTS)[number];

export interface BoundPart {
  mesh: MeshData;
  binding: SurfaceBinding;
  /** Dense skin row per vertex (one weight per bone), from its host triangle's vertices. */
  rows: number[][];
}

interface HeadInput {
  positions: Float32Array;
  indices: Uint32Array;
  rows: readonly number[][];
  loops: { leftEye: number[]; rightEye: number[] };
  /** Head vertices of the eye sockets (behind the lids): the lid parts hold to the lids' skin instead. */
  socket: (v: number) => boolean;
}

/** Per eye, the UV half of each bound part's texture space: the left eye's on the left. */
const HALF = { left: [0.01, 0.49], right: [0.51, 0.99] } as const;
/** The lash cards' UV rectangles (upper lids above v = 0.5, lower below), for the lash texture. */
const LASH_RECTS = { upper: [0.51, 0.99], lower: [0.01, 0.49] } as const;
export const LASH_CARD_UVS: { lid: LidName; rect: [number, number, number, number] }[] = (['left', 'right'] as const).flatMap((side) =>
  (['upper', 'lower'] as const).map((lid) => ({ lid, rect: [HALF[side][0], LASH_RECTS[lid][0], HALF[side][1], LASH_RECTS[lid][1]] as [number, number, number, number] })),
);

/**
 * The eye's parts that ride on other meshes: the corneas on the eyeballs; the lashes, the tear lines
 * and the caruncles on the lids. Each vertex is bound to one host triangle (the lid parts to the
 * skin triangles along the lid's margin nearest to where they meet the lid), so every fit, blendshape
 * and bone moves them with their host; their skin weights are the host triangle's.
 */
export function buildBoundParts(head: HeadInput, eyes: { left: EyeInfo; right: EyeInfo }, eyeMeshes: { left: MeshData; right: MeshData }, res: BoundResolution): { parts: Record<BoundPartName, BoundPart>; lashRoots: Uint32Array } {
  const hosts: BindingHost[] = [head, eyeMeshes.left, eyeMeshes.right];
  const eyeRows = { left: singleBoneRow(BONE.eyeLeft), right: singleBoneRow(BONE.eyeRight) };
  const lidTriangles = (loop: readonly number[]) => {
    const onRim = new Set(loop);
    const out: number[] = [];
    for (let t = 0; t < head.indices.length; t += 3) {
      const tri = [head.indices[t], head.indices[t + 1], head.indices[t + 2]];
      if (tri.some((v) => onRim.has(v)) && !tri.some(head.socket)) out.push(t);
    }
    return out;
  };
  const allTriangles = (mesh: MeshData) => Array.from({ length: mesh.indices.length / 3 }, (_, t) => 3 * t);
  const sides = (['left', 'right'] as const).map((side) => {
    const loop = side === 'left' ? head.loops.leftEye : head.loops.rightEye;
    return { side, loop, eye: eyes[side], rims: lidRims(head.positions, loop), lid: lidTriangles(loop), host: side === 'left' ? 1 : 2 };
  });

  /** A part built per eye; `roots` per vertex says where it holds to its host (the vertex itself when absent). */
  const part = (build: (b: MeshBuilder, s: (typeof sides)[number]) => { vertices: number[]; roots?: Vec3[] }[], onEyeball: boolean): BoundPart => {
    const b = new MeshBuilder();
    const host: number[] = [], corner: number[] = [], rows: number[][] = [];
    for (const s of sides) {
      for (const piece of build(b, s)) {
        piece.vertices.forEach((v, k) => {
          const at = piece.roots?.[k] ?? vertex(b.positions, v);
          const h = onEyeball ? s.host : 0;
          const t = nearestTriangle(at, hosts[h], onEyeball ? allTriangles(eyeMeshes[s.side]) : s.lid);
          host.push(h);
          corner.push(t);
          rows.push(onEyeball ? eyeRows[s.side] : blendRows(head, t));
        });
      }
    }
    const positions = Float32Array.from(b.positions);
    const indices = Uint32Array.from(b.indices);
    return { mesh: { positions, normals: vertexNormals(positions, indices), uvs: Float32Array.from(b.uvs), indices }, binding: bindToSurface(positions, hosts, host, corner), rows };
  };

  const lashRoots: number[] = [];
  const parts = {
    cornea: part((b, s) => [{ vertices: addCornea(b, s.eye.centre, s.eye.radius, res.cornea.segments, res.cornea.ringStep, { centre: [(HALF[s.side][0] + HALF[s.side][1]) / 2, 0.5], radius: 0.235 }) }], true),
    eyelashes: part((b, s) => {
      const rect = (lid: LidName) => LASH_CARD_UVS.find((c) => c.lid === lid && c.rect[0] === HALF[s.side][0])!.rect;
      const cards = [
        addLashCard(b, s.rims.upper, s.eye.centre, 'upper', res.lashes.upper, res.lashes.rows, rect('upper')),
        addLashCard(b, s.rims.lower, s.eye.centre, 'lower', res.lashes.lower, res.lashes.rows, rect('lower')),
      ];
      for (const card of cards) lashRoots.push(...card.rootVertices);
      return cards;
    }, false),
    tearLine: part((b, s) => [addTearLine(b, s.rims.lower, s.eye.centre, s.eye.radius, res.tearStations, [HALF[s.side][0], 0.01, HALF[s.side][1], 0.99])], false),
    caruncle: part((b, s) => {
      const corner = vertex(head.positions, s.loop[0]);
      const { vertices, seat } = addCaruncle(b, corner, centroid(head.positions, s.loop), s.eye.centre, s.eye.radius, res.caruncle.segments, res.caruncle.rings, [HALF[s.side][0], 0.01, HALF[s.side][1], 0.99]);
      return [{ vertices, roots: vertices.map(() => seat) }];
    }, false),
  };
  return { parts, lashRoots: Uint32Array.from(lashRoots) };
}

/** The head's skin at a triangle: its three vertices' rows averaged. */
function blendRows(head: HeadInput, corner: number): number[] {
  const rows = [0, 1, 2].map((k) => head.rows[head.indices[corner + k]]);
  return rows[0].map((_, j) => (rows[0][j] + rows[1][j] + rows[2][j]) / 3);
}

/**
 * Every bound part placed on the neutral (fitted) head and eyeballs, the lashes kept clear of the skin: a fitted lid
 * can lie over where its triangles put them (on main d60e028, 126 pairs of lash and head triangles crossed over the
 * 18 test photos' heads on 2.0, 80 on 1.6). The tear lines and the caruncles are laid on the eyeballs afresh along the
 * fitted lids, as the template lays its own: carried by their lid triangles, they stood where the template's lids meet
 * its eyeballs, the tear line up to 5 mm in front of a fitted eyeball, a pale stroke over its white (p12-a), and the
 * caruncles cut into 8 of 18 fitted eyeballs. Where the fitted lids cut them there, they take the next place the lids
 * leave clear (TEAR_SHIFTS, CARUNCLE_SEATS).
 */
export function placeBoundParts(template: HeadTemplate, hosts: Record<BoundHostName, Float32Array>): Record<BoundPartName, Float32Array> {
  const placed = Object.fromEntries(Object.keys(template.bound).map((name) => [name, placeBoundPart(template, name as BoundPartName, hosts)])) as Record<BoundPartName, Float32Array>;
  keepLashesClear(template, hosts.head, placed.eyelashes);
  unfoldLashes(template, placed.eyelashes);
  // Both eyes, left first, as buildBoundParts makes them.
  const { tearStations } = template.boundResolution;
  const tear: Vec3[] = [], caruncles: Vec3[] = [];
  const head = { positions: hosts.head, indices: template.head.indices };
  const oneCaruncle = oneEyesTriangles(template.parts.caruncle.indices), oneTear = oneEyesTriangles(template.parts.tearLine.indices);
  const eyes = [fitSphere(hosts.eyeLeft), fitSphere(hosts.eyeRight)];
  const seatings = caruncleSeatings(template, hosts.head, eyes);
  [template.loops.leftEye, template.loops.rightEye].forEach((loop, e) => {
    const rim = lidRims(hosts.head, loop).lower;
    tear.push(...firstClearOfHead(TEAR_SHIFTS.map((shift) => tearLinePoints(rim, eyes[e].center, eyes[e].radius, tearStations, shift)), oneTear, head).points);
    caruncles.push(...firstClearOfHead(seatings[e], oneCaruncle, head).points);
  });
  placed.tearLine = Float32Array.from(tear.flat());
  placed.caruncle = Float32Array.from(caruncles.flat());
  return placed;
}

/**
 * A lash card turned apart between two columns can fold there: cleared of the skin column by column (p10-b) or moved
 * to the lids' rest (p06-a, p07-a), 2-3 pairs of its triangles crossed at a lid's outer corner. The lashes there are
 * shortened towards their roots, as far as it takes (`lashes` in place).
 */
export function unfoldLashes(template: HeadTemplate, lashes: Float32Array): void {
  const roots = new Float32Array(lashes.length);
  for (let v = 0; v < template.lashRoots.length; v++) roots.set(lashes.subarray(3 * template.lashRoots[v], 3 * template.lashRoots[v] + 3), 3 * v);
  const { indices } = template.parts.eyelashes;
  const every = new Uint32Array(indices.length / 3);
  for (let t = 0; t < every.length; t++) every[t] = t;
  untangle(lashes, roots, indices, every);
}

/** Per eye (left first), the caruncle's points at each of CARUNCLE_SEATS in the inner corner of `head`'s lids, on `eyes`. */
export function caruncleSeatings(template: HeadTemplate, head: Float32Array, eyes: readonly Sphere[]): Vec3[][][] {
  const { segments, rings } = template.boundResolution.caruncle;
  return [template.loops.leftEye, template.loops.rightEye].map((loop, e) =>
    CARUNCLE_SEATS.map((at) => caruncleOn(vertex(head, loop[0]), centroid(head, loop), eyes[e].center, eyes[e].radius, segments, rings, at)),
  );
}

/** The triangles of a part made of two eyes' alike (left first, as buildBoundParts makes them): the first eye's. */
export function oneEyesTriangles(indices: Uint32Array): Uint32Array {
  return indices.subarray(0, indices.length / 2);
}

/** One bound part placed on its hosts as they are now, by the template's binding or an avatar's own (`rebind`). */
export function placeBoundPart(template: HeadTemplate, name: BoundPartName, hosts: Record<BoundHostName, Float32Array>, binding = template.bound[name]): Float32Array {
  return placeBound(binding, hostMeshes(template, hosts));
}

/**
 * A bound part's binding to the template's host triangles, from where it lies on its hosts (`points`, on `hosts`):
 * an avatar's lashes, moved off its skin, follow their triangles from there in its shapes.
 */
export function rebind(template: HeadTemplate, name: BoundPartName, points: ArrayLike<number>, hosts: Record<BoundHostName, Float32Array>): SurfaceBinding {
  const { host, corner } = template.bound[name];
  return bindToSurface(points, hostMeshes(template, hosts), host, corner);
}

function hostMeshes(template: HeadTemplate, hosts: Record<BoundHostName, Float32Array>): BindingHost[] {
  return BOUND_HOSTS.map((host) => ({ positions: hosts[host], indices: host === 'head' ? template.head.indices : template.parts[host].indices }));
}

const hostVertices = new WeakMap<HeadTemplate, Map<BoundPartName, Record<BoundHostName, Uint32Array>>>();

/** The vertices of each host that a bound part is placed from (those of the triangles it holds to): it moves only when they do. */
export function boundHostVertices(template: HeadTemplate, name: BoundPartName): Record<BoundHostName, Uint32Array> {
  let byPart = hostVertices.get(template);
  if (!byPart) hostVertices.set(template, (byPart = new Map()));
  let found = byPart.get(name);
  if (!found) {
    const binding = template.bound[name];
    const sets = BOUND_HOSTS.map(() => new Set<number>());
    binding.host.forEach((host, i) => {
      const indices = BOUND_HOSTS[host] === 'head' ? template.head.indices : template.parts[BOUND_HOSTS[host]].indices;
      for (let k = 0; k < 3; k++) sets[host].add(indices[binding.corner[i] + k]);
    });
    found = Object.fromEntries(BOUND_HOSTS.map((host, h) => [host, Uint32Array.from(sets[h]).sort()])) as Record<BoundHostName, Uint32Array>;
    byPart.set(name, found);
  }
  return found;
}
