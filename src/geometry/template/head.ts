import type { Vec3 } from '../../model/avatar.ts';
import { boundaryLoops } from '../mesh/adjacency.ts';
import { MeshBuilder, type UvDisc } from '../mesh/builder.ts';
import { vertex } from '../mesh/vec.ts';
import { FACE_VERTEX_COUNT, type CanonicalFace } from './canonical-face.ts';
import { splitSeams } from '../mesh/split-seams.ts';
import { layoutBehindSeam } from './back-island.ts';
import { buildBust } from './bust.ts';
import { earRings } from './ear.ts';
import { fitEyeball, socketRings, type EyeFit } from './eye-socket.ts';
import { openFace, type FaceLoops } from './face-parts.ts';
import { headRow, jawWeights } from './head-weights.ts';
import { mouthBagRings } from './mouth-bag.ts';
import { buildSkin } from './skin.ts';

/** What each head vertex belongs to (a vertex on a seam between two parts takes the lower tag). */
export const enum Tag {
  Face = 0,
  Skin = 1,
  MouthBag = 2,
  SocketLeft = 3,
  SocketRight = 4,
  EarLeft = 5,
  EarRight = 6,
  Bust = 7,
  /** The bust's flat bottom (its own UV island). */
  BustBottom = 8,
}

export interface BaseHead {
  positions: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
  tags: Tag[];
  /** Dense skin weight rows (one entry per bone). */
  rows: number[][];
  loops: FaceLoops;
  /** The bust's bottom edge on its sides (the bottom has its own copies of these vertices). */
  bustEdge: number[];
  eyes: { left: EyeFit; right: EyeFit };
}

/**
 * The head atlas has four islands. The front island holds the face, its canonical UVs scaled up in
 * the middle, and the skin's first rings around it, out to the seam that runs over the top of the
 * head, behind the ears and under the chin (SEAM_RING). Behind it the rest of the skin and the bust's
 * sides are unrolled (back-island.ts) in two islands, cut down the sides of the neck: the back, and
 * the throat and chest. The bust's flat bottom is the fourth. The face gets over twice the texel
 * density of the back of the head and the neck: it is what users look at and what the photo shows.
 */
type Box = [number, number, number, number];
/** The front island's box (min u, min v, max u, max v); the face's square sits in its middle. */
const FRONT_BOX: Box = [0.004, 0.316, 0.684, 0.996];
export const FACE_UV = { offset: [0.064, 0.376] as [number, number], scale: 0.56 };
const SEAM_RING = 5;
const SKIN = {
  columnsPerEdge: 3,
  rings: 26,
  earCentre: [-7.4, 1.8, -4.5] as Vec3,
  earCells: [2, 6] as [number, number],
  uvRings: SEAM_RING,
  uvBox: FRONT_BOX,
};
/**
 * Behind the seam: cut down the sides of the neck from behind the ears over the shoulders (as fractions
 * of the columns, which start on the forehead and run down the right side), the back island in the
 * column right of the front island, the throat's and chest's island below the front island.
 */
const BACK = { seams: [0.75, 0.25], bottomScale: 0.4, boxes: [[0.692, 0.004, 0.996, 0.996], [0.004, 0.004, 0.684, 0.308]] as Box[] };
/**
 * Each ear's own UV disc (right, left), below the back island: at about the face's texel density (some
 * 46 px/cm in 2.0), as a side view shows an ear as large as the face's side. The seam runs round the
 * ear's stem, in the fold behind and in front of it.
 */
const EAR_ISLANDS: UvDisc[] = [
  { centre: [0.844, 0.13], radius: 0.082 },
  { centre: [0.844, 0.33], radius: 0.082 },
];
/** The bust's flat bottom, never seen, in the corner right of the neck's front island. */
const BUST = { rings: 8, bottomRings: 2, bottomUv: { centre: [0.55, 0.1] as [number, number], half: [0.13, 0.09] as [number, number] } };

/**
 * The head at the light template's resolution: the opened canonical face, the skin from its
 * oval to the neck cut with openings for the ears, the bust below the cut, eye sockets and the
 * mouth bag closing the face's holes, and the ears. Vertices 0..467 are the canonical face's.
 */
export function buildBaseHead(face: CanonicalFace): BaseHead {
  const { indices: faceIndices, loops } = openFace(face);
  const b = new MeshBuilder();
  for (let i = 0; i < FACE_VERTEX_COUNT; i++) {
    b.vertex(vertex(face.positions, i), [FACE_UV.offset[0] + face.uvs[2 * i] * FACE_UV.scale, FACE_UV.offset[1] + face.uvs[2 * i + 1] * FACE_UV.scale]);
  }
  b.indices.push(...faceIndices);
  const tags: Tag[] = new Array(FACE_VERTEX_COUNT).fill(Tag.Face);
  const tag = (ids: number[], t: Tag) => ids.forEach((v) => (tags[v] = t));

  const before = b.vertexCount;
  const skin = buildSkin(b, loops.faceOval, [FACE_UV.offset[0] + FACE_UV.scale / 2, FACE_UV.offset[1] + FACE_UV.scale / 2], SKIN);
  tag(range(before, b.vertexCount), Tag.Skin);
  const bust = buildBust(b, skin.cut, BUST);
  tag(bust.sides, Tag.Bust);
  tag(bust.bottom, Tag.BustBottom);

  const eyes = { left: fitEyeball(b.positions, loops.leftEye), right: fitEyeball(b.positions, loops.rightEye) };
  const socket = (loop: number[], eye: EyeFit, t: Tag) => {
    const { rings, apex } = socketRings(b.positions, loop, eye);
    tag(b.cap(loop, rings, apex), t);
  };
  socket(loops.leftEye, eyes.left, Tag.SocketLeft);
  socket(loops.rightEye, eyes.right, Tag.SocketRight);
  const bag = mouthBagRings(b.positions, loops.lipsInner);
  const bagIds = b.cap(loops.lipsInner, bag.rings, bag.apex);
  tag(bagIds, Tag.MouthBag);

  const open = boundaryLoops(b.indices);
  // Per ear triangle (by index), the island UVs of the skin's vertices round the ear's stem.
  const earRims: { triangles: [number, number]; rim: Map<number, [number, number]> }[] = [];
  skin.earHoles.forEach((hole, side) => {
    const base = open.find((l) => l.includes(skin.grid[hole.k0][hole.c0]))!;
    const { rings, apex } = earRings(b.positions, base, side === 0 ? -1 : 1);
    const first = b.indices.length / 3;
    const rimUvs = b.islandLoopUvs(base, EAR_ISLANDS[side]);
    tag(b.cap(base, rings, apex, EAR_ISLANDS[side]), side === 0 ? Tag.EarRight : Tag.EarLeft);
    earRims.push({ triangles: [first, b.indices.length / 3], rim: new Map(base.map((v, i) => [v, rimUvs[i]])) });
  });

  // Behind the seam: the skin's rings, then the bust's.
  const M = skin.columns;
  const backRings = [...skin.grid.slice(SEAM_RING), ...range(0, BUST.rings).map((r) => bust.sides.slice(r * M, (r + 1) * M))];
  const uvBehind = layoutBehindSeam(b.positions, backRings, { ...BACK, neckRing: SKIN.rings - SEAM_RING });
  const place = new Map<number, [number, number]>();
  backRings.forEach((ring, j) => ring.forEach((v, c) => place.set(v, [j, c])));
  const copies = splitSeams(b, (t, v) => {
    const ear = earRims.find(({ triangles: [from, to] }) => t >= from && t < to);
    if (ear) return ear.rim.get(v);
    const corners = [0, 1, 2].map((k) => place.get(b.indices[3 * t + k]));
    if (corners.some((p) => !p)) return undefined;
    // The triangle's cell: the column after which its other column follows.
    const columns = new Set(corners.map((p) => p![1]));
    const cell = [...columns].find((c) => columns.has((c + 1) % M))!;
    const [j, c] = place.get(v)!;
    return uvBehind(cell, j, c);
  });
  for (const v of copies) tags.push(tags[v]);

  const jawOf = jawWeights(b.positions, loops.lipsInner);
  const rows: number[][] = [];
  for (let v = 0; v < b.vertexCount; v++) {
    const p = vertex(b.positions, v);
    rows.push(headRow(p, tags[v] === Tag.MouthBag ? 0 : tags[v] === Tag.Face || tags[v] === Tag.Skin ? jawOf(p) : 0));
  }
  // Mouth bag weights blend from the lips' own towards the bag's halves (upper 0, lower 1).
  const lipCount = loops.lipsInner.length;
  const steps = bag.rings.length + 1;
  bag.rings.forEach((ring, r) =>
    ring.forEach((_, i) => {
      const lip = loops.lipsInner[i];
      const lipJaw = jawOf(vertex(b.positions, lip));
      const half = i === 0 || i === lipCount / 2 ? 0.5 : i < lipCount / 2 ? 0 : 1;
      const w = (r + 1) / steps;
      rows[bagIds[r * lipCount + i]] = headRow(vertex(b.positions, bagIds[r * lipCount + i]), lipJaw * (1 - w) + half * w);
    }),
  );
  rows[bagIds[bagIds.length - 1]] = headRow(bag.apex, 0.5);

  return compact(b, tags, rows, loops, bust.edge, eyes);
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** Drops vertices no triangle uses (the skin's grid inside the ear openings), keeping the order of the rest. */
function compact(b: MeshBuilder, tags: Tag[], rows: number[][], loops: FaceLoops, bustEdge: number[], eyes: BaseHead['eyes']): BaseHead {
  const used = new Uint8Array(b.vertexCount);
  for (const v of b.indices) used[v] = 1;
  const map = new Int32Array(b.vertexCount).fill(-1);
  let next = 0;
  for (let v = 0; v < b.vertexCount; v++) if (used[v]) map[v] = next++;
  const keep = range(0, b.vertexCount).filter((v) => used[v]);
  const positions = new Float32Array(next * 3), uvs = new Float32Array(next * 2);
  keep.forEach((v, i) => {
    positions.set(b.positions.slice(3 * v, 3 * v + 3), 3 * i);
    uvs.set(b.uvs.slice(2 * v, 2 * v + 2), 2 * i);
  });
  return {
    positions,
    uvs,
    indices: Uint32Array.from(b.indices, (v) => map[v]),
    tags: keep.map((v) => tags[v]),
    rows: keep.map((v) => rows[v]),
    loops,
    bustEdge: bustEdge.map((v) => map[v]),
    eyes,
  };
}
