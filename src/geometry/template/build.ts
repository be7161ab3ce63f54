import type { MeshData, TemplateVersion, Vec3 } from '../../model/avatar.ts';
import { vertexNormals } from '../mesh/normals.ts';
import { subdivide } from '../mesh/subdivide.ts';
import { weldMap } from '../mesh/weld.ts';
import { buildEyeball, eyeballLayout } from './eyeball.ts';
import type { CanonicalFace } from './canonical-face.ts';
import { buildBaseHead, FACE_UV, Tag, type BaseHead } from './head.ts';
import { BUST_BOTTOM_Y } from './bust.ts';
import { applyTorsoRelief } from './torso-relief.ts';
import { packSkin, singleBoneRow } from './head-weights.ts';
import { buildTeeth, buildTongue, mouthFrame } from './mouth-parts.ts';
import { jointPositions, skeleton } from './rig.ts';
import { BONE, BOUND_PART_NAMES, type BoundPartName, type BoundResolution, type HeadRegions, type HeadTemplate } from './types.ts';
import { buildBoundParts, type BoundPart } from './bound-parts.ts';

/**
 * Resolution of each template: the 2.0 head is the 1.6 head split once (about four times the vertices).
 * 1.6's crowns are hexagonal in section, its gums have fewer sections, its eyeballs and corneas 16 segments (not 20),
 * its lashes straight cards with fewer columns, to keep the avatar within
 * its 15,000 triangles.
 */
const RESOLUTION: Record<TemplateVersion, { textureSize: number; subdivisions: number; eyeSegments: number; teethSections: number; profile: number; toothProfile: number; bound: BoundResolution }> = {
  '1.6': {
    textureSize: 1024, subdivisions: 0, eyeSegments: 16, teethSections: 13, profile: 10, toothProfile: 6,
    bound: { cornea: { segments: 16, ringStep: 1 }, lashes: { upper: 6, lower: 4, rows: 2 }, tearStations: 16, caruncle: { segments: 6, rings: 2 } },
  },
  '2.0': {
    textureSize: 2048, subdivisions: 1, eyeSegments: 32, teethSections: 33, profile: 16, toothProfile: 12,
    bound: { cornea: { segments: 32, ringStep: 1 }, lashes: { upper: 14, lower: 10, rows: 3 }, tearStations: 16, caruncle: { segments: 10, rings: 5 } },
  },
};

function refine(base: BaseHead, times: number): BaseHead {
  let head = base;
  for (let i = 0; i < times; i++) {
    // Smooth only across face, skin and bust; the thin ear, the cavities and the bust's bottom
    // edge keep their flat edges (so the edge stays level and meets the bottom's copies of it).
    const smoothTag = (v: number) => head.tags[v] === Tag.Face || head.tags[v] === Tag.Skin || head.tags[v] === Tag.Bust;
    const edge = new Set(head.bustEdge);
    // Seam copies on the smooth surface weld, so the butterfly smooths across the UV seams alike on
    // both sides; the bottom's copies of its edge stay apart (the edge is a crease).
    const weld = weldMap(head.positions).map((w, v) => (smoothTag(v) && smoothTag(w) ? w : v));
    const out = subdivide({ ...head, weld, smooth: (a, b) => smoothTag(a) && smoothTag(b) && !(edge.has(a) && edge.has(b)) });
    const tags = [...head.tags, ...out.parents.map(([a, b]) => Math.min(head.tags[a], head.tags[b]) as Tag)];
    // The edge's midpoints on the sides (not the bottom's copies); across a seam the sides'
    // triangle uses a copy of an edge vertex, found by its position.
    const sideMid = new Map<string, number>();
    out.parents.forEach(([a, b], i) => {
      if (head.tags[a] === Tag.Bust && head.tags[b] === Tag.Bust) sideMid.set([weld[a], weld[b]].sort((x, y) => x - y).join(), head.positions.length / 3 + i);
    });
    const newEdge = head.bustEdge.flatMap((v, k) => {
      const w = head.bustEdge[(k + 1) % head.bustEdge.length];
      return [v, sideMid.get([weld[v], weld[w]].sort((x, y) => x - y).join())!];
    });
    for (const v of newEdge) out.positions[3 * v + 1] = BUST_BOTTOM_Y;
    head = { ...head, positions: out.positions, uvs: out.uvs, indices: out.indices, rows: out.rows, tags, bustEdge: newEdge };
  }
  return head;
}

/** Builds the head template of a version around the canonical face: deterministic, and slow enough that callers keep it. */
export function generateTemplate(version: TemplateVersion, face: CanonicalFace): HeadTemplate {
  const res = RESOLUTION[version];
  const head = refine(buildBaseHead(face), res.subdivisions);
  // The muscles and bones under the neck's and the bust's skin, on the finished resolution (the light
  // template's rings are too far apart to carry them through a subdivision).
  applyTorsoRelief(head.positions, vertexNormals(head.positions, head.indices), head.tags.flatMap((t, v) => (t === Tag.Skin || t === Tag.Bust ? [v] : [])));
  const eyes = head.eyes;
  const world = jointPositions({ eyeLeft: eyes.left.centre, eyeRight: eyes.right.centre, bottomY: BUST_BOTTOM_Y });
  const frame = mouthFrame(head.positions, 13, 14);
  const teeth = buildTeeth(frame, res.teethSections, res.profile, res.toothProfile);
  const lower = new Set(teeth.lower);
  const mesh = (positions: Float32Array, uvs: Float32Array, indices: Uint32Array): MeshData => ({ positions, normals: vertexNormals(positions, indices), uvs, indices });
  const parts = {
    eyeLeft: buildEyeball(eyes.left.centre, eyes.left.radius, res.eyeSegments),
    eyeRight: buildEyeball(eyes.right.centre, eyes.right.radius, res.eyeSegments),
    teeth: teeth.mesh,
    tongue: buildTongue(frame, res.teethSections, res.profile),
  };
  const socket = new Set(head.tags.flatMap((t, v) => (t === Tag.SocketLeft || t === Tag.SocketRight ? [v] : [])));
  const { parts: bound, lashRoots } = buildBoundParts(
    { positions: head.positions, indices: head.indices, rows: head.rows, loops: head.loops, socket: (v) => socket.has(v) },
    eyes,
    { left: parts.eyeLeft, right: parts.eyeRight },
    res.bound,
  );
  const rigid = (m: MeshData, bone: number) => packSkin(Array.from({ length: m.positions.length / 3 }, () => singleBoneRow(bone)));
  return {
    version,
    textureSize: res.textureSize,
    head: mesh(head.positions, head.uvs, head.indices),
    parts: { ...parts, ...mapBound(bound, (p) => p.mesh) },
    bones: skeleton(world),
    boneWorld: world,
    skins: {
      head: packSkin(head.rows),
      eyeLeft: rigid(parts.eyeLeft, BONE.eyeLeft),
      eyeRight: rigid(parts.eyeRight, BONE.eyeRight),
      teeth: packSkin(Array.from({ length: parts.teeth.positions.length / 3 }, (_, v) => singleBoneRow(lower.has(v) ? BONE.jaw : BONE.head))),
      tongue: rigid(parts.tongue, BONE.tongue),
      ...mapBound(bound, (p) => packSkin(p.rows)),
    },
    bound: mapBound(bound, (p) => p.binding),
    boundResolution: res.bound,
    lashRoots,
    faceVertexCount: 468,
    loops: head.loops,
    bustEdge: head.bustEdge,
    regions: regionsOf(head),
    eyes: { left: { centre: eyes.left.centre as Vec3, radius: eyes.left.radius }, right: { centre: eyes.right.centre as Vec3, radius: eyes.right.radius } },
    irisUv: eyeballLayout(eyes.left.radius).irisUv,
    lowerTeeth: teeth.lower,
    faceUv: FACE_UV,
  };
}

function mapBound<T>(parts: Record<BoundPartName, BoundPart>, f: (p: BoundPart) => T): Record<BoundPartName, T> {
  return Object.fromEntries(BOUND_PART_NAMES.map((name) => [name, f(parts[name])])) as Record<BoundPartName, T>;
}

/** Below the chin the skin counts as neck. */
const NECK_BELOW_Y = -10;

function regionsOf(head: BaseHead): HeadRegions {
  const where = (test: (v: number) => boolean) => head.tags.map((_, v) => v).filter(test);
  const is = (t: Tag) => (v: number) => head.tags[v] === t;
  return {
    face: where(is(Tag.Face)),
    skin: where(is(Tag.Skin)),
    neck: where((v) => head.tags[v] === Tag.Skin && head.positions[3 * v + 1] < NECK_BELOW_Y),
    bust: where((v) => head.tags[v] === Tag.Bust || head.tags[v] === Tag.BustBottom),
    ears: where((v) => head.tags[v] === Tag.EarLeft || head.tags[v] === Tag.EarRight),
    earLeft: where(is(Tag.EarLeft)),
    earRight: where(is(Tag.EarRight)),
    mouthBag: where(is(Tag.MouthBag)),
    eyeSocketLeft: where(is(Tag.SocketLeft)),
    eyeSocketRight: where(is(Tag.SocketRight)),
  };
}
