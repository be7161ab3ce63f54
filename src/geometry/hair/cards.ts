/**
 * The hairstyle generator: grows a style (styles.ts) over a head as hair cards — ribbons of strand
 * texture, root to tip — over an opaque under-layer shell that hides the scalp. Cards follow the scalp at
 * their layer's lift, turn away from the parting or crown, fall under gravity, curl, and stop above the
 * brows and clear of the face; a few thin ones stray off as flyaways. Pure: same inputs, same mesh.
 */
import type { MeshData, Vec3 } from '../../model/avatar.ts';
import { add, cross, dot, normalize, scale, sub } from '../mesh/vec.ts';
import { ATLAS, cardColumn, type AtlasRegion } from './atlas.ts';
import { seededRandom } from '../../util/seeded-random.ts';
import { direction, hairlineCoverage, onScalp, surfaceRadius, type ScalpMap } from './scalp-map.ts';
import { MAX_PUSH } from './keep-outside.ts';
import type { HairStyle } from './styles.ts';

/** The face features the hair keeps clear of (template cm). */
export interface FaceClearance {
  /** Height of the top of the forehead (the hairline of a bare forehead) and of the brows. */
  hairlineY: number;
  browY: number;
  /** Half the face's width at the eyes and its front: cards do not enter x in (-half, half), z > front below the brows. */
  halfWidth: number;
  front: number;
  /** The ears: top height and back edge (tucked strands pass behind). */
  earTop: number;
  earBack: number;
}

export interface CardBudget {
  triangles: number;
  /** Nodes along the longest card. */
  maxNodes: number;
  /** Shell grid: cells around and from the neck up. */
  shellAround: number;
  shellUp: number;
}

const SHELL_LIFT = 0.18;
const ROOT_LIFT = 0.25;
/** Under-layer cards hug the scalp; the rest form the outer layer at the style's lift. */
const INNER_SHARE = 0.35;
const FLYAWAY_SHARE = 0.03;
const FLYAWAY_MIN_LENGTH = 12;
const GRAVITY: Vec3 = [0, -1, 0];
/** How far beyond its layer a strand over the cranium may stray, cm (plus a share of the style's lift). */
const HUG_SLACK = 0.5;
/** Cards shorter than this (cm) take only the root end of the strand texture: a cut, blunt end instead of thinning points. */
const FULL_TAPER_LENGTH = 12;

class Builder {
  positions: number[] = [];
  normals: number[] = [];
  uvs: number[] = [];
  indices: number[] = [];
  vertex(p: Vec3, n: Vec3, u: number, v: number): number {
    this.positions.push(p[0], p[1], p[2]);
    this.normals.push(n[0], n[1], n[2]);
    this.uvs.push(u, v);
    return this.positions.length / 3 - 1;
  }
  get triangles(): number {
    return this.indices.length / 3;
  }
  mesh(): MeshData {
    return { positions: new Float32Array(this.positions), normals: new Float32Array(this.normals), uvs: new Float32Array(this.uvs), indices: new Uint32Array(this.indices) };
  }
}

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

/** The component of v along the surface at the point whose outward direction is `radial`. */
const tangential = (v: Vec3, radial: Vec3): Vec3 => sub(v, scale(radial, dot(v, radial)));

export function generateHairstyle(style: HairStyle, map: ScalpMap, face: FaceClearance, budget: CardBudget, seed = 1): MeshData {
  const rnd = seededRandom(seed * 7919 + style.name.length * 104729 + style.name.charCodeAt(0));
  const b = new Builder();
  shell(b, map, budget, style.shellOnly ? ATLAS.stubble : ATLAS.shell, style.shellOnly ? 0.08 : style.cardless ? style.lift : SHELL_LIFT);
  if (style.shellOnly || style.cardless) return b.mesh();
  const grow = new Grower(style, map, face, budget, rnd);
  if (style.gather?.bun) grow.bun(b, budget.triangles * 0.3);
  if (style.gather?.tail) grow.tail(b, budget.triangles * 0.3);
  // Roots spread evenly (a Fibonacci lattice), visited in random order until the budget is spent.
  const roots: Vec3[] = [];
  const lattice = 4000;
  for (let i = 0; i < lattice; i++) {
    const el = Math.asin(1 - (2 * (i + 0.5)) / lattice);
    const az = i * Math.PI * (3 - Math.sqrt(5));
    const d = direction(az, el);
    const p = add(map.centre, d);
    if (hairlineCoverage(map, p[0], p[1], p[2]) >= 0.5) roots.push(d);
  }
  for (let i = roots.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [roots[i], roots[j]] = [roots[j], roots[i]];
  }
  for (let i = 0; i < roots.length && b.triangles < budget.triangles - 2 * budget.maxNodes; i++) grow.card(b, roots[i]);
  return b.mesh();
}

/** Coverage of the template's hairline at which the under-layer ends. */
const SHELL_EDGE = 0.35;

/**
 * The under-layer: per column around the head, rows from where the hairline's coverage rises through
 * SHELL_EDGE (found on a fine scan, interpolated) to the crown, closed with a fan at the pole. Its edge
 * thus follows the hairline smoothly instead of in grid steps, and the first row maps onto the region's
 * feathered band, so the edge shows as strand tips rather than a cut.
 */
function shell(b: Builder, map: ScalpMap, budget: CardBudget, region: AtlasRegion, lift: number): void {
  const { shellAround: na, shellUp: ne } = budget;
  const el0 = -Math.PI / 3, el1 = (Math.PI / 2) * 0.94;
  const azimuth = (a: number) => (a / na) * 2 * Math.PI;
  const coverageAt = (az: number, el: number) => {
    const p = add(map.centre, direction(az, el));
    return hairlineCoverage(map, p[0], p[1], p[2]);
  };
  const fine = ne * 6;
  const bottom = new Float64Array(na).fill(el0);
  for (let a = 0; a < na; a++) {
    let above = coverageAt(azimuth(a), el1);
    for (let k = fine - 2; k >= 0; k--) {
      const el = el0 + ((el1 - el0) * k) / (fine - 1);
      const c = coverageAt(azimuth(a), el);
      if (c < SHELL_EDGE) {
        const step = (el1 - el0) / (fine - 1);
        bottom[a] = el + step * ((SHELL_EDGE - c) / Math.max(1e-6, above - c));
        break;
      }
      above = c;
    }
  }
  const elevation = (a: number, e: number) => bottom[a] + ((el1 - bottom[a]) * e) / (ne - 1);
  const v = (e: number) => (e === 0 ? region.v0 : region.v0 + region.feather + ((region.v1 - region.v0 - region.feather) * (e - 1)) / (ne - 2));
  const vertex = (a: number, e: number, u: number) => {
    const p = onScalp(map, add(map.centre, direction(azimuth(a), elevation(a % na, e))), lift);
    return b.vertex(p, normalize(sub(p, map.centre)), u, v(e));
  };
  // Columns 0..na: the last repeats the first with its own u, so that u does not wrap back across the region.
  const ids: number[][] = [];
  for (let a = 0; a <= na; a++) {
    const u = region.u0 + ((region.u1 - region.u0) * a) / na;
    ids.push(Array.from({ length: ne }, (_, e) => vertex(a % na, e, u)));
  }
  for (let a = 0; a < na; a++) for (let e = 0; e < ne - 1; e++) {
    const [p00, p01, p10, p11] = [ids[a][e], ids[a + 1][e], ids[a][e + 1], ids[a + 1][e + 1]];
    b.indices.push(p00, p01, p11, p00, p11, p10);
  }
  const pole = onScalp(map, add(map.centre, [0, 1, 0]), lift);
  const c = b.vertex(pole, [0, 1, 0], (region.u0 + region.u1) / 2, region.v1);
  for (let a = 0; a < na; a++) b.indices.push(ids[a][ne - 1], ids[a + 1][ne - 1], c);
}

class Grower {
  private readonly crown: Vec3;
  private readonly partX: number;
  constructor(
    private readonly style: HairStyle,
    private readonly map: ScalpMap,
    private readonly face: FaceClearance,
    private readonly budget: CardBudget,
    private readonly rnd: () => number,
  ) {
    this.crown = onScalp(map, add(map.centre, direction(Math.PI, (50 * Math.PI) / 180)), 0);
    this.partX = style.parting === 'left' ? 2.6 : style.parting === 'right' ? -2.6 : 0;
  }

  private radial(p: Vec3): Vec3 {
    return normalize(sub(p, this.map.centre));
  }

  /** Keeps p at least `lift` off the scalp and out of the face and (tucked) the ears. */
  private clear(p: Vec3, lift: number, fringe: boolean, hug: boolean): Vec3 | undefined {
    const m = this.map;
    const d = sub(p, m.centre);
    const r = Math.hypot(d[0], d[1], d[2]);
    const min = surfaceRadius(m, p[0], p[1], p[2]) + lift;
    // Over the cranium hair lies on its layer rather than sticking out; below it, it hangs free.
    const max = hug && d[1] / r > -0.3 ? min + HUG_SLACK + this.style.lift * 0.3 : Infinity;
    // A point far below the map's surface is beside the neck with the shoulder behind it (keep-outside.ts): a strand falls on.
    let q = (r < min && min - r <= MAX_PUSH) || r > max ? add(m.centre, scale(d, Math.min(max, Math.max(min, r)) / r)) : p;
    const f = this.face;
    // Only a fringe comes down over the forehead; other strands end about the hairline.
    const stop = fringe ? f.hairlineY - this.style.fringe * (f.hairlineY - f.browY) : f.hairlineY - 1;
    if (q[2] > f.front && Math.abs(q[0]) < f.halfWidth && q[1] < Math.max(stop, f.browY + 0.4)) return undefined;
    if (this.style.tucked && q[1] < f.earTop + 1 && q[1] > f.earTop - 12 && q[2] > f.earBack && Math.abs(q[0]) > f.halfWidth - 1) q = [q[0], q[1], f.earBack];
    return q;
  }

  private lengthAt(d: Vec3): number {
    const s = this.style;
    const wTop = Math.max(0, d[1]) ** 2, wSide = Math.abs(d[0]), wBack = Math.max(0, -d[2]);
    const sum = wTop + wSide + wBack || 1;
    return (wTop * s.top + wSide * s.sides + wBack * s.back) / sum;
  }

  /** Which way a strand leaves its root, along the scalp. */
  private startDirection(root: Vec3, radial: Vec3, fringe: boolean): Vec3 {
    const s = this.style;
    let t: Vec3;
    if (fringe) t = [0, -0.3, 1];
    else if (s.flow === 'gather' && s.gather) t = sub(s.gather.at, root);
    else if (s.flow === 'back') t = [0, 0.15, -1];
    else if (s.flow === 'parting' && root[2] > this.crown[2] && radial[1] > 0.2) {
      const side = Math.sign(root[0] - this.partX) || 1;
      t = [side, 0, -0.5];
    } else t = sub(root, this.crown);
    if (s.tucked && Math.abs(radial[0]) > 0.55) t = [0, -0.4, -1];
    const out = tangential(normalize(t), radial);
    return normalize(Math.hypot(...out) < 1e-3 ? tangential([0, -1, 0], radial) : out);
  }

  card(b: Builder, rootDir: Vec3): void {
    const s = this.style, rnd = this.rnd;
    const root = onScalp(this.map, add(this.map.centre, rootDir), ROOT_LIFT);
    const radial = this.radial(root);
    // Flyaways belong to long hair: on short hair they stand off as antennae.
    const flyaway = rnd() < FLYAWAY_SHARE && this.lengthAt(rootDir) > FLYAWAY_MIN_LENGTH;
    const inner = !flyaway && rnd() < INNER_SHARE;
    const fringe = s.fringe > 0 && rootDir[2] > 0.45 && Math.abs(rootDir[0]) < 0.55 && rootDir[1] > 0;
    const length = this.lengthAt(rootDir) * (0.8 + 0.3 * rnd()) * (inner ? 0.85 : 1);
    // A quiff stands up over the forehead and settles towards the crown.
    const front = (s.quiff ?? 0) * smooth(0.35, 0.8, rootDir[2]) * smooth(-0.1, 0.35, rootDir[1]) * smooth(0.75, 0.3, Math.abs(rootDir[0]));
    // The quiff's rise varies little card to card: a roll, not a crest of spikes.
    const lift = (inner ? Math.min(0.35, s.lift) : s.lift * (0.7 + 0.5 * rnd()) + front * (0.85 + 0.3 * rnd())) + (flyaway ? 0.8 : 0);
    const width = (flyaway ? 0.35 : 1.1 + 0.8 * rnd()) * Math.max(0.6, Math.min(1.4, length / 8));
    const column = flyaway ? ATLAS.flyawayColumn : Math.floor(rnd() * (ATLAS.cardColumns - 1));
    this.ribbon(b, root, this.startDirection(root, radial, fringe), length, lift, width, column, fringe, flyaway ? 0.25 : 0, s.flow === 'gather');
  }

  /** Grows one strand path from p and builds its card. */
  private ribbon(b: Builder, p0: Vec3, t0: Vec3, length: number, lift: number, width: number, column: number, fringe: boolean, wander: number, toGather: boolean, facing?: Vec3, gravityScale = 1): void {
    const s = this.style, rnd = this.rnd;
    if (length < 0.3) return;
    const nodes = Math.max(3, Math.min(this.budget.maxNodes, Math.round(2 + length / 3)));
    const step = length / (nodes - 1);
    const gravity = Math.min(0.5, Math.max(0.08, length / 40)) * (1 - s.stand) * gravityScale;
    const phase = rnd() * Math.PI * 2;
    const path: Vec3[] = [p0];
    const tangents: Vec3[] = [t0];
    let p = p0, t = t0;
    for (let i = 1; i < nodes; i++) {
      const along = (i * step) / length;
      const rad = this.radial(p);
      t = normalize(add(add(t, scale(GRAVITY, gravity)), scale(rad, s.stand * 0.6 + wander * (rnd() - 0.3))));
      let q = add(p, scale(t, step));
      if (s.curl > 0) {
        const side = normalize(cross(t, rad));
        const w = Math.sin(phase + (2 * Math.PI * s.curlRate * i * step) / 10) * s.curl;
        q = add(q, add(scale(side, w * 0.7), scale(rad, Math.abs(w) * 0.4)));
      }
      const cleared = this.clear(q, ROOT_LIFT + lift * smooth(0, 0.35, along), fringe, !facing && wander === 0 && s.stand < 0.5);
      if (!cleared) break;
      t = normalize(sub(cleared, p));
      p = cleared;
      path.push(p);
      tangents.push(t);
      if (toGather && s.gather && Math.hypot(...sub(p, s.gather.at)) < 1.5) break;
    }
    if (path.length < 2) return;
    const [u0, u1] = cardColumn(column);
    // Short cards: less of the texture's thinning tips, less taper and twist (lying flat, cut blunt).
    const span = Math.min(1, Math.max(0.8, length / FULL_TAPER_LENGTH));
    const twist = (rnd() - 0.5) * 0.6 * span;
    const ids: number[] = [];
    for (let i = 0; i < path.length; i++) {
      const rad = facing ?? this.radial(path[i]);
      const side = normalize(add(normalize(cross(tangents[i], rad)), scale(rad, twist)));
      const w = (width / 2) * (1 - 0.45 * span * (i / (nodes - 1)));
      const v = 0.99 - 0.98 * span * ((i * step) / length);
      ids.push(b.vertex(sub(path[i], scale(side, w)), rad, u0, v), b.vertex(add(path[i], scale(side, w)), rad, u1, v));
    }
    for (let i = 0; i + 1 < path.length; i++) {
      const [a, c, a1, c1] = [ids[2 * i], ids[2 * i + 1], ids[2 * i + 2], ids[2 * i + 3]];
      b.indices.push(a, a1, c, c, a1, c1);
    }
  }

  /** A ball of short curled cards around the gather point. */
  bun(b: Builder, triangles: number): void {
    const g = this.style.gather!;
    const start = b.triangles;
    for (let i = 0; b.triangles - start < triangles && i < 400; i++) {
      const d = direction(i * 2.39996, Math.asin(1 - (2 * (i % 60 + 0.5)) / 60));
      const t = normalize(tangential(Math.abs(d[1]) > 0.9 ? [1, 0, 0] : [0, 1, 0], d));
      const [u0, u1] = cardColumn(i % (ATLAS.cardColumns - 1));
      const ids: number[] = [];
      const n = 4;
      for (let k = 0; k < n; k++) {
        const ang = (k / (n - 1)) * 1.4;
        const pos = add(g.at, scale(normalize(add(scale(d, Math.cos(ang)), scale(t, Math.sin(ang)))), g.bun * (1 + 0.06 * k)));
        const side = normalize(cross(t, d));
        const v = 0.99 - 0.98 * (k / (n - 1));
        ids.push(b.vertex(sub(pos, scale(side, 1.2)), d, u0, v), b.vertex(add(pos, scale(side, 1.2)), d, u1, v));
      }
      for (let k = 0; k + 1 < n; k++) b.indices.push(ids[2 * k], ids[2 * k + 2], ids[2 * k + 1], ids[2 * k + 1], ids[2 * k + 2], ids[2 * k + 3]);
    }
  }

  /** Cards hanging from the gather point, spreading a little as they fall. */
  tail(b: Builder, triangles: number): void {
    const g = this.style.gather!;
    const start = b.triangles;
    for (let i = 0; b.triangles - start < triangles && i < 200; i++) {
      const a = (i * 2.39996) % (2 * Math.PI);
      const off: Vec3 = [Math.cos(a) * 1.4, Math.sin(a) * 1.1, -0.4];
      const t0 = normalize([off[0] * 0.25, -1, -0.45 + off[2]]);
      this.ribbon(b, add(g.at, off), t0, g.tail * (0.8 + 0.3 * this.rnd()), 0.2, 2.2, i % (ATLAS.cardColumns - 1), false, 0, false, normalize(off), 2);
    }
  }
}
