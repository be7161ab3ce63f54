import type { Vec3 } from '../../model/avatar.ts';
import { boundaryLoops } from '../mesh/adjacency.ts';
import { MeshBuilder } from '../mesh/builder.ts';
import { vertex } from '../mesh/vec.ts';
import { FACE_VERTEX_COUNT, type CanonicalFace } from './canonical-face.ts';
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

/** The face's canonical UVs take the middle half of the head atlas; the skin surrounds them. */
export const FACE_UV = { offset: [0.25, 0.25] as [number, number], scale: 0.5 };
/**
 * The skin's and the bust's sides share one radial UV layout around the face island, out to the
 * border of the atlas above a strip along its bottom edge, which holds the bust's flat bottom.
 */
const BOTTOM_STRIP = 0.1;
const SKIN = {
  columnsPerEdge: 3,
  rings: 26,
  earCentre: [-7.4, 0.1, -4.5] as Vec3,
  earCells: [2, 6] as [number, number],
  uvReach: 0.8,
  uvBox: [0.004, BOTTOM_STRIP + 0.006, 0.996, 0.996] as [number, number, number, number],
};
const BUST = { rings: 8, bottomRings: 2, bottomUv: { centre: [0.5, BOTTOM_STRIP / 2] as [number, number], half: [0.496, BOTTOM_STRIP / 2 - 0.004] as [number, number] } };

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
  const bust = buildBust(b, skin.cut, { ...BUST, uvOf: (c, r) => skin.columnUv(c, SKIN.uvReach + ((1 - SKIN.uvReach) * r) / BUST.rings) });
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
  skin.earHoles.forEach((hole, side) => {
    const base = open.find((l) => l.includes(skin.grid[hole.k0][hole.c0]))!;
    const { rings, apex } = earRings(b.positions, base, side === 0 ? -1 : 1);
    tag(b.cap(base, rings, apex, true), side === 0 ? Tag.EarRight : Tag.EarLeft);
  });

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
