import type { MeshData, Vec3 } from '../../model/avatar.ts';
import { MeshBuilder } from '../mesh/builder.ts';
import { vertexNormals } from '../mesh/normals.ts';
import { normalize, vertex } from '../mesh/vec.ts';
import { addTube, type TubeSection } from './tube.ts';

/**
 * Teeth and tongue, placed from the inner lip contour: the dental arch is a parabola whose front
 * sits behind the lips; the tongue lies inside the lower arch, below the biting edges.
 */
export interface MouthFrame {
  /** Height of the biting plane (between the inner lips). */
  occlusalY: number;
  /** Depth of the front of the upper arch's centre line. */
  frontZ: number;
}

const ARCH = { halfWidth: 2.2, depth: 3.5, frontBehindLips: 0.85, lowerBehind: 0.1, lowerNarrower: 0.1, gap: 0.03 };
const toothHeight = (s: number) => 1.0 - 0.25 * Math.abs(s);
const toothHalfThickness = (s: number) => 0.3 + 0.15 * Math.abs(s);

export function mouthFrame(positions: ArrayLike<number>, upperInnerLip: number, lowerInnerLip: number): MouthFrame {
  const up = vertex(positions, upperInnerLip), low = vertex(positions, lowerInnerLip);
  return { occlusalY: (up[1] + low[1]) / 2, frontZ: Math.min(up[2], low[2]) - ARCH.frontBehindLips };
}

function arch(frame: MouthFrame, lower: boolean) {
  const halfWidth = ARCH.halfWidth - (lower ? ARCH.lowerNarrower : 0);
  const frontZ = frame.frontZ - (lower ? ARCH.lowerBehind : 0);
  return {
    at: (s: number): Vec3 => [halfWidth * s, 0, frontZ - ARCH.depth * s * s],
    tangent: (s: number): Vec3 => normalize([halfWidth, 0, -2 * ARCH.depth * s]),
    /** Half width of the arch's inside at depth z (0 behind its ends). */
    innerHalfWidth: (z: number) => {
      const s = Math.sqrt(Math.max(0, frontZ - z) / ARCH.depth);
      return s > 1 ? 0 : halfWidth * s - toothHalfThickness(s);
    },
  };
}

/** Upper and lower rows of teeth, two closed tubes; returns the mesh and the lower row's vertices. */
export function buildTeeth(frame: MouthFrame, sectionsPerRow: number, profilePoints: number): { mesh: MeshData; lower: number[] } {
  const b = new MeshBuilder();
  let lower: number[] = [];
  for (const isLower of [false, true]) {
    const a = arch(frame, isLower);
    const sections: TubeSection[] = [];
    for (let i = 0; i < sectionsPerRow; i++) {
      const s = -1 + (2 * i) / (sectionsPerRow - 1);
      const h = toothHeight(s), t = a.tangent(s), c = a.at(s);
      const sign = isLower ? -1 : 1;
      sections.push({ centre: [c[0], frame.occlusalY + sign * (ARCH.gap + h / 2), c[2]], across: [t[2] * toothHalfThickness(s), 0, -t[0] * toothHalfThickness(s)], up: [0, h / 2, 0] });
    }
    const end = (s: number, dir: number): Vec3 => {
      const c = sections[s === -1 ? 0 : sectionsPerRow - 1].centre, t = a.tangent(s);
      return [c[0] + dir * 0.15 * t[0], c[1], c[2] + dir * 0.15 * t[2]];
    };
    const ids = addTube(b, sections, [end(-1, -1), end(1, 1)], profilePoints, 2.5, isLower ? [0.01, 0.01, 0.99, 0.49] : [0.01, 0.51, 0.99, 0.99]);
    if (isLower) lower = ids;
  }
  return { mesh: finish(b), lower };
}

/** The tongue: a flattened tube from the back of the mouth to a rounded tip behind the lower incisors. */
export function buildTongue(frame: MouthFrame, sections: number, profilePoints: number): MeshData {
  const b = new MeshBuilder();
  const lowerArch = arch(frame, true);
  const tipZ = frame.frontZ - ARCH.lowerBehind - 0.7, backZ = 0.9;
  const top = frame.occlusalY - 0.35, bottom = frame.occlusalY - 1.3;
  const list: TubeSection[] = [];
  for (let i = 0; i < sections; i++) {
    const z = backZ + ((tipZ - backZ) * i) / (sections - 1);
    const halfWidth = Math.min(1.7, lowerArch.innerHalfWidth(z) - 0.15);
    list.push({ centre: [0, (top + bottom) / 2, z], across: [halfWidth, 0, 0], up: [0, (top - bottom) / 2, 0] });
  }
  addTube(b, list, [[0, (top + bottom) / 2, backZ - 0.3], [0, (top + bottom) / 2 + 0.05, tipZ + 0.35]], profilePoints, 1.3, [0.02, 0.02, 0.98, 0.98]);
  return finish(b);
}

function finish(b: MeshBuilder): MeshData {
  const positions = Float32Array.from(b.positions);
  const indices = Uint32Array.from(b.indices);
  return { positions, normals: vertexNormals(positions, indices), uvs: Float32Array.from(b.uvs), indices };
}
