import type { MeshData, Vec3 } from '../../model/avatar.ts';
import { MeshBuilder } from '../mesh/builder.ts';
import { vertexNormals } from '../mesh/normals.ts';
import { normalize, vertex } from '../mesh/vec.ts';
import { addTube, sectionProfile, type TubeSection } from './tube.ts';

/**
 * Teeth and tongue, placed from the inner lip contour: the dental arch is a parabola whose front
 * sits behind the lips; the tongue lies inside the lower arch, below the biting edges.
 */
export interface MouthFrame {
  /** Height of the biting plane (`BITE_BELOW_LIPS` below the middle between the inner lips). */
  occlusalY: number;
  /** Depth of the front of the upper arch's centre line. */
  frontZ: number;
}

/**
 * The biting plane lies this far (cm) below the lips' meeting line. With the overbite below it, the upper
 * incisors' edges sit 2 to 3 mm below the upper lip, as in a face at rest, behind the closed lips, so that their
 * fronts show once the jaw opens (at the meeting line one saw only the gums' underside over a dark mouth).
 */
const BITE_BELOW_LIPS = 0.05;
/**
 * The lower arch sits `lowerBehind` behind the upper one: the overjet that lets the upper incisors come down in
 * front of the lower ones (the overbite, per tooth in TEETH), each crown's edge as thin as it is.
 */
const ARCH = { halfWidth: 2.2, depth: 3.5, frontBehindLips: 0.85, lowerBehind: 0.4, lowerNarrower: 0.1, gap: 0.03 };
const toothHeight = (s: number) => 1.0 - 0.25 * Math.abs(s);
const toothHalfThickness = (s: number) => 0.3 + 0.15 * Math.abs(s);

export function mouthFrame(positions: ArrayLike<number>, upperInnerLip: number, lowerInnerLip: number): MouthFrame {
  const up = vertex(positions, upperInnerLip), low = vertex(positions, lowerInnerLip);
  return { occlusalY: (up[1] + low[1]) / 2 - BITE_BELOW_LIPS, frontZ: Math.min(up[2], low[2]) - ARCH.frontBehindLips };
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

/**
 * The teeth of one side from the middle back, with their widths along the arch (adult upper row, cm;
 * the lower row is fitted to its shorter arch by the same ratios) and crown shapes. The upper incisors reach
 * `overbite` below the biting plane, in front of the lower ones (an adult's 2 mm at the middle).
 */
const TEETH: { kind: ToothKind; width: number; overbite: number }[] = [
  { kind: 'incisor', width: 0.85, overbite: 0.2 }, { kind: 'incisor', width: 0.66, overbite: 0.12 }, { kind: 'canine', width: 0.77, overbite: 0 },
  { kind: 'premolar', width: 0.7, overbite: 0 }, { kind: 'premolar', width: 0.67, overbite: 0 }, { kind: 'molar', width: 1.0, overbite: 0 },
  { kind: 'molar', width: 0.92, overbite: 0 }, { kind: 'molar', width: 0.86, overbite: 0 },
];
type ToothKind = 'incisor' | 'canine' | 'premolar' | 'molar';
/**
 * Per kind, from the gum to the biting edge: how the crown's width and thickness scale, and how square
 * its cross-section is (2 round, larger boxier). Incisors thin to a blade, canines to a point.
 */
const CROWN: Record<ToothKind, { width: (t: number) => number; thickness: (t: number) => number; square: number }> = {
  incisor: { width: (t) => 0.85 + 0.15 * Math.sin(Math.PI * t * 0.8), thickness: (t) => 1 - 0.65 * t * t, square: 2.6 },
  canine: { width: (t) => 1 - 0.7 * t ** 3, thickness: (t) => 1 - 0.45 * t * t, square: 2.2 },
  premolar: { width: (t) => 0.85 + 0.15 * Math.sin(Math.PI * t), thickness: (t) => 0.9 + 0.1 * Math.sin(Math.PI * t), square: 2.4 },
  molar: { width: (t) => 0.88 + 0.12 * Math.sin(Math.PI * t), thickness: (t) => 0.88 + 0.12 * Math.sin(Math.PI * t), square: 3 },
};
/** The gum covers this share of the old band's height at the root; the crowns show below it. */
const GUM_SHARE = 0.38;
/** Crowns stop this far (cm) short of the gum and of each other: touching, never cutting in. */
const CLEARANCE = 0.01;
/** UV: the gums in the bottom band of the teeth texture (below `GUMS_BELOW_V`), each tooth in a cell above. */
export const GUMS_BELOW_V = 0.2;
/**
 * UV: the teeth's cells, `TOOTH_COLUMNS` across: column k holds the k-th tooth from the middle (of either side and
 * row), its crown from the root (u = k / TOOTH_COLUMNS + CROWN_U[0]) to the edge (+ CROWN_U[1]); the gums' u runs
 * along the arch from one end to the other.
 */
export const TOOTH_COLUMNS = 8;
export const CROWN_U: readonly [number, number] = [0.01, 0.115];

/** Curvature of the arch's centre line at parameter s (1/cm). */
function curvature(a: ReturnType<typeof arch>, s: number): number {
  const w = a.at(1)[0], d = a.at(0)[2] - a.at(1)[2];
  return (2 * w * d) / (w * w + 4 * d * d * s * s) ** 1.5;
}

/** Arc length of the arch from its middle to parameter s (numerically). */
function archLength(a: ReturnType<typeof arch>, s: number): number {
  const steps = 64;
  let sum = 0;
  for (let i = 0; i < steps; i++) {
    const p = a.at((s * i) / steps), q = a.at((s * (i + 1)) / steps);
    sum += Math.hypot(q[0] - p[0], q[2] - p[2]);
  }
  return sum;
}

/** The arch parameter at arc length `length` from the middle (bisection). */
function archAt(a: ReturnType<typeof arch>, length: number): number {
  let lo = 0, hi = 1.2;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (archLength(a, mid) < length) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Widens each section of a central incisor (of side `side`) towards the midline, until its nearest point is
 * `CLEARANCE` from it: the arch's front turns so fast that crowns laid square to it face each other at 23 degrees,
 * and their inner corners left a dark slit up to 1.4 mm wide between the front teeth, seen from the front. The
 * crown grows on its inner side only (its centre moves half as far as its inner edge), so its outer edge stays
 * behind the lateral incisor's as before; slid whole, it opened a notch between them at the biting edge.
 */
function meetAtMidline(sections: TubeSection[], side: number, profilePoints: number, square: number): void {
  for (const section of sections) {
    // The inner point moves a little less than the centre and the half-width together (the crown is turned): a few rounds.
    for (let round = 0; round < 4; round++) {
      const short = Math.min(...sectionProfile(section, profilePoints, square).map((p) => side * p[0])) - CLEARANCE;
      const half = Math.hypot(...section.across);
      section.centre[0] -= (side * short) / 2;
      section.across = section.across.map((c) => c * (1 + short / 2 / half)) as Vec3;
    }
  }
}

/**
 * Upper and lower rows: gums along each arch (closed tubes over the roots) and sixteen closed crowns a
 * row (incisors, canines, premolars, molars), each hanging from (or standing on) its gum. Returns the
 * mesh and the lower row's vertices. `toothProfile` is the points round each crown.
 */
export function buildTeeth(frame: MouthFrame, sectionsPerRow: number, profilePoints: number, toothProfile: number): { mesh: MeshData; lower: number[] } {
  const b = new MeshBuilder();
  const lower: number[] = [];
  const toothSections = Math.max(4, Math.round(profilePoints / 2.5));
  for (const isLower of [false, true]) {
    const a = arch(frame, isLower);
    const sign = isLower ? -1 : 1;
    const first = b.vertexCount;
    // The gum: the top share of a band as deep as the teeth, along the whole arch.
    const gum: TubeSection[] = [];
    for (let i = 0; i < sectionsPerRow; i++) {
      const s = -1 + (2 * i) / (sectionsPerRow - 1);
      const h = toothHeight(s), t = a.tangent(s), c = a.at(s);
      const centre = frame.occlusalY + sign * (ARCH.gap + h * (1 - GUM_SHARE / 2));
      gum.push({ centre: [c[0], centre, c[2]], across: [t[2] * toothHalfThickness(s), 0, -t[0] * toothHalfThickness(s)], up: [0, (h * GUM_SHARE) / 2, 0] });
    }
    const end = (i: number, s: number, dir: number): Vec3 => {
      const c = gum[i].centre, t = a.tangent(s);
      return [c[0] + dir * 0.15 * t[0], c[1], c[2] + dir * 0.15 * t[2]];
    };
    const gumRow = isLower ? 1 : 0;
    addTube(b, gum, [end(0, -1, -1), end(sectionsPerRow - 1, 1, 1)], profilePoints, 2.5, [0.01, 0.01 + gumRow * 0.1, 0.99, 0.09 + gumRow * 0.1]);
    // The crowns, placed by arc length so that each gets its width, scaled to fill the arch.
    const half = archLength(a, 1);
    const total = TEETH.reduce((sum, tooth) => sum + tooth.width, 0);
    for (const side of [-1, 1]) {
      let along = 0;
      TEETH.forEach((tooth, k) => {
        const width = (tooth.width * half) / total;
        const s = side * archAt(a, along + width / 2);
        along += width;
        const c = a.at(s), t = a.tangent(s), h = toothHeight(s);
        const outward: Vec3 = [-t[2], 0, t[0]];
        const bend = curvature(a, s);
        const crown = CROWN[tooth.kind];
        const root = frame.occlusalY + sign * (ARCH.gap + h * (1 - GUM_SHARE) - CLEARANCE);
        const edge = frame.occlusalY + sign * ARCH.gap - (isLower ? 0 : tooth.overbite);
        const sections: TubeSection[] = [];
        for (let j = 0; j < toothSections; j++) {
          const f = j / (toothSections - 1);
          const halfThick = (toothHalfThickness(s) - CLEARANCE) * crown.thickness(f);
          // The arch bends: on its inside neighbouring crowns come closer by the curvature times the depth.
          const halfWidth = (width / 2 - CLEARANCE) * crown.width(f) * Math.max(0.5, 1 - halfThick * bend);
          const y = root + (edge - root) * (0.04 + 0.92 * f);
          // across x up must run from the root to the edge: down for the upper row, up for the lower.
          const dir = sign;
          sections.push({ centre: [c[0], y, c[2]], across: [t[0] * halfWidth * dir, 0, t[2] * halfWidth * dir], up: [outward[0] * halfThick, 0, outward[2] * halfThick] });
        }
        if (k === 0) meetAtMidline(sections, side, toothProfile, crown.square);
        const cell = (side < 0 ? 0 : TEETH.length) + k, row = isLower ? 2 : 0;
        const u0 = (cell % TOOTH_COLUMNS) / TOOTH_COLUMNS, v0 = GUMS_BELOW_V + 0.02 + ((row + Math.floor(cell / TOOTH_COLUMNS)) * (0.98 - GUMS_BELOW_V)) / 4;
        const v1 = v0 + (0.98 - GUMS_BELOW_V) / 4 - 0.02;
        const poles: [Vec3, Vec3] = [[sections[0].centre[0], root, c[2]], [sections[toothSections - 1].centre[0], edge, c[2]]];
        addTube(b, sections, poles, toothProfile, crown.square, [u0 + CROWN_U[0], v0, u0 + CROWN_U[1], v1]);
      });
    }
    if (isLower) for (let v = first; v < b.vertexCount; v++) lower.push(v);
  }
  return { mesh: finish(b), lower };
}

/** The tongue: a flattened tube from the thick root at the back of the mouth to a thin rounded tip behind the lower incisors. */
export function buildTongue(frame: MouthFrame, sections: number, profilePoints: number): MeshData {
  const b = new MeshBuilder();
  const lowerArch = arch(frame, true);
  const tipZ = frame.frontZ - ARCH.lowerBehind - 0.7, backZ = 0.9;
  const top = frame.occlusalY - 0.35, bottom = frame.occlusalY - 1.3;
  const list: TubeSection[] = [];
  for (let i = 0; i < sections; i++) {
    const t = i / (sections - 1);
    const z = backZ + (tipZ - backZ) * t;
    // Thick at the root, thinning and narrowing to a flat, rounded tip.
    const halfWidth = Math.min(1.7, lowerArch.innerHalfWidth(z) - 0.15) * (1 - 0.3 * t ** 3);
    const halfHeight = ((top - bottom) / 2) * (1 - 0.45 * t * t);
    list.push({ centre: [0, (top + bottom) / 2, z], across: [halfWidth, 0, 0], up: [0, halfHeight, 0] });
  }
  addTube(b, list, [[0, (top + bottom) / 2, backZ - 0.3], [0, (top + bottom) / 2 + 0.05, tipZ + 0.35]], profilePoints, 1.3, [0.02, 0.02, 0.98, 0.98]);
  return finish(b);
}

function finish(b: MeshBuilder): MeshData {
  const positions = Float32Array.from(b.positions);
  const indices = Uint32Array.from(b.indices);
  return { positions, normals: vertexNormals(positions, indices), uvs: Float32Array.from(b.uvs), indices };
}
