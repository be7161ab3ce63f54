import { createRequire } from 'node:module';
import { boundaryLoops } from '../mesh/adjacency.ts';
import type { CanonicalFace } from './canonical-face.ts';

type Pairs = [number, number][];

/** The FACEMESH_* connection constants of @mediapipe/face_mesh (index pairs of landmarks). */
function connections(): Record<string, Pairs> {
  return createRequire(import.meta.url)('@mediapipe/face_mesh') as Record<string, Pairs>;
}

/** Ordered loops and polylines of the face, in landmark numbering. */
export interface FaceLoops {
  /** Outer boundary of the face (36), from the top of the forehead (10); where the cranium joins. */
  faceOval: number[];
  /** Outer lip contour (20), from the right mouth corner (61). */
  lipsOuter: number[];
  /** Inner lip contour (20), from the right corner (78); where the mouth bag joins. */
  lipsInner: number[];
  /** Eyelid contours (16), from the inner corner; where the eye sockets join. */
  leftEye: number[];
  rightEye: number[];
  /** Eyebrow landmarks (10 each): lower line then upper line, from the inner end. */
  leftEyebrow: number[];
  rightEyebrow: number[];
}

/** Chains connection pairs into ordered polylines (a closed loop repeats no vertex). */
function chains(pairs: Pairs): number[][] {
  const links = new Map<number, number[]>();
  for (const [a, b] of pairs) {
    links.set(a, [...(links.get(a) ?? []), b]);
    links.set(b, [...(links.get(b) ?? []), a]);
  }
  const seen = new Set<number>();
  const out: number[][] = [];
  const ends = [...links.keys()].filter((v) => links.get(v)!.length === 1);
  for (const start of [...ends, ...links.keys()]) {
    if (seen.has(start)) continue;
    const chain = [start];
    seen.add(start);
    for (let v = start; ; ) {
      const next = links.get(v)!.find((n) => !seen.has(n));
      if (next === undefined) break;
      chain.push(next);
      seen.add(next);
      v = next;
    }
    out.push(chain);
  }
  return out;
}

function rotateTo(loop: number[], first: number): number[] {
  const at = loop.indexOf(first);
  if (at < 0) throw new Error(`vertex ${first} not on loop`);
  return [...loop.slice(at), ...loop.slice(0, at)];
}

const vertexSet = (pairs: Pairs) => new Set(pairs.flat());

/**
 * The canonical triangulation closes the eyes and the mouth; the template keeps them open
 * (eyeballs and the mouth bag fill them), so the triangles spanning those holes go.
 */
export function openFace(face: CanonicalFace): { indices: Uint32Array; loops: FaceLoops } {
  const c = connections();
  // FACEMESH_LIPS holds both lip contours; the inner one runs through the corner 78.
  const lipContours = chains(c.FACEMESH_LIPS);
  const innerLips = new Set(lipContours.find((l) => l.includes(78)));
  const holes = [vertexSet(c.FACEMESH_LEFT_EYE), vertexSet(c.FACEMESH_RIGHT_EYE), innerLips];
  const kept: number[] = [];
  for (let t = 0; t < face.indices.length; t += 3) {
    const tri = [face.indices[t], face.indices[t + 1], face.indices[t + 2]];
    if (!holes.some((h) => tri.every((v) => h.has(v)))) kept.push(...tri);
  }
  const boundary = boundaryLoops(kept);
  const loopOf = (members: Set<number>, first: number) => {
    const loop = boundary.find((l) => l.length === members.size && l.every((v) => members.has(v)));
    if (!loop) throw new Error(`face boundary loop through ${first} not found`);
    return rotateTo(loop, first);
  };
  const outerLips = lipContours.find((l) => l.includes(61));
  const brows = (pairs: Pairs) => chains(pairs).flat();
  return {
    indices: Uint32Array.from(kept),
    loops: {
      faceOval: loopOf(vertexSet(c.FACEMESH_FACE_OVAL), 10),
      lipsOuter: rotateTo(outerLips!, 61),
      lipsInner: loopOf(innerLips, 78),
      leftEye: loopOf(vertexSet(c.FACEMESH_LEFT_EYE), 362),
      rightEye: loopOf(vertexSet(c.FACEMESH_RIGHT_EYE), 133),
      leftEyebrow: brows(c.FACEMESH_LEFT_EYEBROW),
      rightEyebrow: brows(c.FACEMESH_RIGHT_EYEBROW),
    },
  };
}
