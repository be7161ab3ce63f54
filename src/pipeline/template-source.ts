/** Maps the head templates of src/geometry/template onto the view the photo pipeline works with. */
import type { MeshData, TemplateVersion } from '../model/avatar.ts';
import type { EarRest } from '../geometry/fit/fit-head.ts';
import { buildTemplate } from './head-template.ts';
import { PART_NAMES } from '../geometry/template/types.ts';
import { GUMS_BELOW_V } from '../geometry/template/mouth-parts.ts';
import type { TemplateView } from './template-view.ts';
import { hairCoverage } from './hair.ts';
import { trianglesTouching } from '../geometry/fit/untangle.ts';
import { jawArea } from '../geometry/fit/jaw-skin.ts';
import { grow, neighbourLists, vertexNeighbours } from '../geometry/mesh/adjacency.ts';
import { withinReach } from '../geometry/mesh/near-points.ts';
import { gatherVec3 } from '../geometry/mesh/gather.ts';
import { FACE_POINTS } from './face/pose.ts';
import { smoothstep } from '../geometry/mesh/smoothstep.ts';

const views = new Map<TemplateVersion, TemplateView>();
/**
 * How far (cm) from the lips' inner contour the jaw's weights are checked: the lips, the corners and the front of the
 * mouth bag, where skin the jaw turns lies against skin it turns less.
 */
const JAW_AREA = 1.5;

export function loadTemplateView(version: TemplateVersion): TemplateView {
  let view = views.get(version);
  if (view) return view;
  const t = buildTemplate(version);
  const face = [...t.regions.face, ...t.regions.mouthBag, ...t.regions.eyeSocketLeft, ...t.regions.eyeSocketRight];
  const neighbours = vertexNeighbours(t.head.positions.length / 3, t.head.indices);
  view = {
    source: t,
    version,
    textureSize: t.textureSize,
    meshes: [
      { name: 'head', geometry: t.head, skin: t.skins.head },
      ...PART_NAMES.map((name) => ({ name, geometry: t.parts[name], skin: t.skins[name] })),
    ],
    canonicalFace: t.head.positions.subarray(0, FACE_POINTS * 3),
    bones: t.bones,
    eyes: {
      eyeLeft: { center: t.eyes.left.centre, radius: t.eyes.left.radius },
      eyeRight: { center: t.eyes.right.centre, radius: t.eyes.right.radius },
    },
    openingPairs: [t.loops.lipsInner, t.loops.leftEye, t.loops.rightEye].flatMap((loop) => facingPairs(loop, t.head.positions)),
    ears: [earRest(t.head, neighbours, t.regions.earRight, EAR_ANCHORS.right), earRest(t.head, neighbours, t.regions.earLeft, EAR_ANCHORS.left)],
    foldProne: trianglesTouching(
      t.head.indices,
      near(
        t.head.positions,
        face,
        [...t.loops.lipsInner, ...t.loops.lipsOuter, ...t.loops.leftEye, ...t.loops.rightEye],
        FOLD_RADIUS,
      ),
      t.head.positions.length / 3,
    ),
    jawArea: jawArea(t.head.positions, t.head.indices, t.loops.lipsInner, JAW_AREA),
    faceTriangles: trianglesTouching(t.head.indices, face, t.head.positions.length / 3),
    faceOval: t.loops.faceOval,
    lipsOuter: t.loops.lipsOuter,
    neckFront: neckFront(t.head.positions, t.regions.neck),
    mouthInside: t.regions.mouthBag,
    hairCoverage: hairCoverage(t.head.positions, scalpOf(t.regions), t.loops.faceOval),
    headNeighbours: neighbourLists(t.head.positions.length / 3, t.head.indices),
    eyeSockets: [...t.regions.eyeSocketLeft, ...t.regions.eyeSocketRight],
    irisUv: { center: t.irisUv.centre, radius: t.irisUv.radius, pupilRadius: t.irisUv.pupilRadius },
    gumsBelowV: GUMS_BELOW_V,
  };
  views.set(version, view);
  return view;
}

/** Face contour landmarks just in front of each ear (the right ear is on -X), and across the face at the ears. */
const EAR_ANCHORS = { right: [127, 234, 93, 132], left: [356, 454, 323, 361] };
const FACE_WIDTH: [number, number] = [234, 454];
/** Two points on the brows and two at the nose's base (the alae's bottoms): an ear spans about their heights. */
const EAR_LEVEL = [105, 334, 98, 327];
/**
 * Over this distance (cm) from the skin round its opening an ear blends from the warp into its own motion. The
 * pinna's front leans in to the head, so it moves mostly with the skin beside it. Blended over 1.2 cm (1.6 cm on
 * template 1.6), the leaned front's layers sheared through each other on some fitted heads (couple, p12-a).
 */
const EAR_STEM = 2;

function earRest(head: MeshData, neighbours: number[][], ear: readonly number[], anchors: number[]): EarRest {
  const inEar = new Set(ear);
  // The skin round the ear's opening: non-ear corners of triangles that touch the ear.
  const rim = new Set<number>();
  for (let t = 0; t < head.indices.length; t += 3) {
    const corners = [head.indices[t], head.indices[t + 1], head.indices[t + 2]];
    if (corners.some((v) => inEar.has(v))) for (const v of corners) if (!inEar.has(v)) rim.add(v);
  }
  const p = head.positions;
  const weights = ear.map((v) => {
    const d = Math.min(...[...rim].map((r) => Math.hypot(p[3 * v] - p[3 * r], p[3 * v + 1] - p[3 * r + 1], p[3 * v + 2] - p[3 * r + 2])));
    return smoothstep(d / EAR_STEM);
  });
  const stemVertices = grow(new Set(ear.filter((_, i) => weights[i] < 1)), neighbours, STEM_RINGS);
  const stem = trianglesTouching(head.indices, [...stemVertices], p.length / 3);
  return { vertices: [...ear], weights, anchors, width: FACE_WIDTH, level: EAR_LEVEL, stem };
}

/**
 * A closed loop around an opening, starting at one corner, pairs vertex k with vertex n - k (the other side);
 * the one higher in the template is the upper.
 */
function facingPairs(loop: readonly number[], positions: Float32Array): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 1; k < loop.length / 2; k++) {
    const a = loop[k];
    const b = loop[loop.length - k];
    out.push(positions[a * 3 + 1] >= positions[b * 3 + 1] ? [a, b] : [b, a]);
  }
  return out;
}

/** Cranium skin without the neck (the regions are ascending vertex lists). */
function scalpOf(regions: { skin: number[]; neck: number[] }): number[] {
  const neck = new Set(regions.neck);
  return regions.skin.filter((v) => !neck.has(v));
}

/** The throat and the neck's front sides below the jaw's shadow: neck vertices between these heights (cm), facing forwards. */
const NECK_FRONT = { top: -12, bottom: -15, behindChin: 6 };
/** At most this many of them are sampled: each is a fill anchor, which every head vertex visits. */
const NECK_SAMPLES = 24;

function neckFront(positions: Float32Array, neck: readonly number[]): number[] {
  const chinZ = positions[152 * 3 + 2];
  const all = neck.filter((v) => positions[v * 3 + 1] <= NECK_FRONT.top && positions[v * 3 + 1] >= NECK_FRONT.bottom && positions[v * 3 + 2] > chinZ - NECK_FRONT.behindChin);
  const stride = Math.ceil(all.length / NECK_SAMPLES);
  return all.filter((_, i) => i % stride === 0);
}

/**
 * Closing the mouth and resting the lids fold the surface next to their openings: within this distance (cm) of their
 * contours. (A check of every face triangle costs about 20 ms a job on 2.0, against about 5.)
 */
const FOLD_RADIUS = 1;

/** The candidates within `radius` of any of the anchor vertices. */
function near(positions: Float32Array, candidates: readonly number[], anchors: readonly number[], radius: number): number[] {
  const within = withinReach(positions, gatherVec3(positions, anchors), radius);
  return candidates.filter((v) => within[v]);
}

/** Rings of the pinna checked with an ear's stem: a stem gone back towards the warp crossed the pinna beside it. */
const STEM_RINGS = 2;
