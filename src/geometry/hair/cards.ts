/**
 * The hairstyle generator: grows a style (styles.ts) over a head as one mass of hair. An opaque base
 * volume shaped like the style's outer envelope (closing onto the scalp over the hairline, rising in a
 * quiff) hides the scalp; long hair hangs from high on the head as a continuous sheet ending in clumped
 * tips; wide clump cards lie over both, turned out from the head, their roots coming out through the
 * volume and their tips tapering, for strand detail and a broken silhouette. Short hair ends at the
 * hairline; only a fringe comes down over the forehead. Pure: same inputs, same mesh.
 */
import type { MeshData, Vec3 } from '../../model/avatar.ts';
import { add, cross, dot, normalize, scale, sub } from '../mesh/vec.ts';
import { ATLAS, cardColumn, type AtlasRegion } from './atlas.ts';
import { seededRandom } from '../../util/seeded-random.ts';
import { direction, hairlineCoverage, onScalp, surfaceRadius, type ScalpMap } from './scalp-map.ts';
import { MAX_PUSH } from './keep-outside.ts';
import { emptyClosestPoint, type TriangleBvh } from '../spatial/triangle-bvh.ts';
import type { HairStyle } from './styles.ts';
import { smoothstepBetween } from '../mesh/smoothstep.ts';
import { roundBends } from './round-bends.ts';

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
  /** Nodes along the longest card, and along a hanging sheet's paths (which drape over the shoulders). */
  maxNodes: number;
  sheetNodes: number;
  /** Shell grid: cells around and from the neck up. */
  shellAround: number;
  shellUp: number;
}

/** Where the base volume stands, as a share of the style's lift (the cards lie on and just above it). */
const SHELL_SHARE = 0.75;
/** At the hairline the base volume comes down to this lift (cm): a closed mass, not a lid floating over the forehead. */
const CLOSE_LIFT = 0.12;
/** Hairline coverage at which the base volume ends, and at which it has risen to its full lift. */
const SHELL_EDGE = 0.35;
const SHELL_RISE = 0.9;
/** Cards shorter than this (cm) are left out. */
const MIN_CARD_LENGTH = 2.5;
/** Cards root where the base volume has risen. */
const CARD_ROOT_COVERAGE = 0.85;
/** How far a card starts under the base volume's surface (cm): its root end is hidden, it comes out through it. */
const ROOT_SINK = 0.08;
const GRAVITY: Vec3 = [0, -1, 0];
/** Longest move of a strand between two checks against the head and body (cm): under MAX_PUSH, so it cannot pass into the shoulder unseen. */
const DRAPE_STEP = 1;
/**
 * Hair hanging onto the neck, shoulders and chest stands this far (cm) off them: between two of its vertices a few cm
 * apart a triangle lying closer would cut into the curved shoulder. Hanging means lower than this below the ears' tops.
 */
const DRAPE_STANDOFF = 0.5;
const DRAPE_BELOW_EAR = 2;
/** A body surface whose normal rises more steeply than this (its y) holds hanging hair up: the strand ends there. */
const REST_SLOPE = 0.75;
/** How far beyond its layer a strand over the cranium may stray, cm (plus a share of the style's lift). */
const HUG_SLACK = 0.4;
/** Styles with hair at least this long at the sides or the back (cm) hang it as a sheet around the head. */
const SHEET_LENGTH = 12;
/** The sheet's roots: a ring this high (radians of elevation), around all but the face's sector (azimuth each side of the front). */
const SHEET_ROOT_ELEVATION = (60 * Math.PI) / 180;
const SHEET_FACE_SECTOR = (42 * Math.PI) / 180;
/** Paths of a sheet per repeat of its texture region across it. */
const SHEET_REPEAT = 6;
/**
 * A card's edge is levelled with its middle (Grower.levelled) only where the scalp under the two differs by less than
 * this (cm): more is an ear's rim, which the map takes for the scalp, not the head's curve.
 */
const LEVEL_STEP = 0.9;
/** Times the base volume's texture region repeats around the head (the shell's columns must divide by it). */
const SHELL_REPEAT = 4;

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
  /** A quad a-b-c-d (around its edge) as two triangles; mesh() winds them (orientFaces). */
  quad(a: number, b: number, c: number, d: number): void {
    this.indices.push(a, b, c, a, c, d);
  }
  triangle(a: number, b: number, c: number): void {
    this.indices.push(a, b, c);
  }
  get triangles(): number {
    return this.indices.length / 3;
  }
  mesh(): MeshData {
    const mesh = { positions: new Float32Array(this.positions), normals: new Float32Array(this.normals), uvs: new Float32Array(this.uvs), indices: new Uint32Array(this.indices) };
    orientFaces(mesh);
    return mesh;
  }
}

/**
 * Winds every triangle (in place) so that its face turns the way its vertices' normals do: viewers that light a
 * double-sided surface's back face with its normal reversed (Cycles, three.js, the preview) would otherwise light
 * hair from the wrong side and draw it near black.
 */
export function orientFaces(mesh: Pick<MeshData, 'positions' | 'normals' | 'indices'>): void {
  const p = mesh.positions, n = mesh.normals, idx = mesh.indices;
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [idx[t] * 3, idx[t + 1] * 3, idx[t + 2] * 3];
    const e1 = [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]];
    const e2 = [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]];
    const face = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    let along = 0;
    for (const v of [a, b, c]) along += face[0] * n[v] + face[1] * n[v + 1] + face[2] * n[v + 2];
    if (along < 0) [idx[t + 1], idx[t + 2]] = [idx[t + 2], idx[t + 1]];
  }
}

/** The component of v along the surface at the point whose outward direction is `radial`. */
const tangential = (v: Vec3, radial: Vec3): Vec3 => sub(v, scale(radial, dot(v, radial)));

/** `body`: the head and bust the hair is grown on, for hanging hair to drape over the shoulders (without it, only the scalp map keeps hair out). */
export function generateHairstyle(style: HairStyle, map: ScalpMap, face: FaceClearance, budget: CardBudget, body?: TriangleBvh, seed = 1): MeshData {
  const rnd = seededRandom(seed * 7919 + style.name.length * 104729 + style.name.charCodeAt(0));
  const b = new Builder();
  const envelope = baseLift(style, map);
  shell(b, map, budget, style.shellOnly ? ATLAS.stubble : ATLAS.shell, envelope);
  if (style.shellOnly || style.cardless) return b.mesh();
  const grow = new Grower(style, map, face, budget, envelope, rnd, body);
  if (style.gather?.bun) grow.bun(b, budget.triangles * 0.25);
  if (style.gather?.tail) grow.tail(b, budget.triangles * 0.3);
  if (!style.gather && Math.min(style.sides, style.back) >= SHEET_LENGTH) grow.sheet(b);
  // Roots spread evenly (a Fibonacci lattice), visited in random order until the budget is spent.
  const roots: Vec3[] = [];
  const lattice = 4000;
  for (let i = 0; i < lattice; i++) {
    const el = Math.asin(1 - (2 * (i + 0.5)) / lattice);
    const az = i * Math.PI * (3 - Math.sqrt(5));
    const d = direction(az, el);
    const p = add(map.centre, d);
    // Hair combed back rises from the hairline itself; elsewhere the hairline is the volume's feathered edge, not card ends.
    if (hairlineCoverage(map, p[0], p[1], p[2]) >= (style.flow === 'back' ? 0.5 : CARD_ROOT_COVERAGE)) roots.push(d);
  }
  for (let i = roots.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [roots[i], roots[j]] = [roots[j], roots[i]];
  }
  // A card takes at most two triangles for each of its rounded path's parts (round-bends.ts: four a segment).
  for (let i = 0; i < roots.length && b.triangles < budget.triangles - 8 * budget.maxNodes; i++) grow.card(b, roots[i]);
  return b.mesh();
}

/**
 * The lift of the style's base volume (cm off the scalp) towards a point: the outer envelope of the
 * style over the cranium (its lift, plus a quiff's rise over the forehead), closing down onto the scalp
 * over the hairline so that the mass meets the skin instead of floating over it.
 */
function baseLift(style: HairStyle, map: ScalpMap): (p: Vec3) => number {
  if (style.shellOnly) return () => 0.08;
  const full = style.cardless ? style.lift : SHELL_SHARE * style.lift;
  return (p) => {
    const d = normalize(sub(p, map.centre));
    const lift = full + quiffRise(style, d);
    return CLOSE_LIFT + (lift - CLOSE_LIFT) * smoothstepBetween(SHELL_EDGE, SHELL_RISE, hairlineCoverage(map, p[0], p[1], p[2]));
  };
}

/** A quiff stands up over the forehead and settles towards the crown and the sides (`d`: direction from the cranium's centre). */
function quiffRise(style: HairStyle, d: Vec3): number {
  return (style.quiff ?? 0) * smoothstepBetween(0.35, 0.8, d[2]) * smoothstepBetween(-0.1, 0.35, d[1]) * smoothstepBetween(0.75, 0.3, Math.abs(d[0]));
}

/**
 * The base volume: per column around the head, rows from where the hairline's coverage rises through
 * SHELL_EDGE (found on a fine scan, interpolated) to the crown, closed with a fan at the pole, each point
 * at the style's base lift. Its edge thus follows the hairline smoothly instead of in grid steps, and the
 * first row maps onto the region's feathered band, so the edge shows as strand tips rather than a cut.
 */
function shell(b: Builder, map: ScalpMap, budget: CardBudget, region: AtlasRegion, lift: (p: Vec3) => number): void {
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
  // Rows crowd towards the hairline, where the volume rises from the skin to its full lift.
  const elevation = (a: number, e: number) => bottom[a] + (el1 - bottom[a]) * (e / (ne - 1)) ** 1.4;
  const v = (e: number) => (e === 0 ? region.v0 : region.v0 + region.feather + ((region.v1 - region.v0 - region.feather) * (e - 1)) / (ne - 2));
  const vertex = (a: number, e: number, u: number) => {
    const on = add(map.centre, direction(azimuth(a), elevation(a % na, e)));
    const p = onScalp(map, on, lift(on));
    return b.vertex(p, normalize(sub(p, map.centre)), u, v(e));
  };
  // The region repeats SHELL_REPEAT times around, so that its strands are about as fine across as along: each column
  // where one repeat ends and the next begins is made twice, with u at either end of the region (the last column, the
  // first again, closes the ring).
  const per = na / SHELL_REPEAT;
  const columns: { left: number[]; right: number[] }[] = [];
  for (let a = 0; a <= na; a++) {
    const at = a % per, seam = at === 0;
    const u = (t: number) => region.u0 + (region.u1 - region.u0) * t;
    const left = Array.from({ length: ne }, (_, e) => vertex(a % na, e, u(seam ? 1 : at / per)));
    const right = seam && a < na ? Array.from({ length: ne }, (_, e) => vertex(a % na, e, u(0))) : left;
    columns.push({ left, right });
  }
  const ids = columns.map((c) => c.right);
  for (let a = 0; a < na; a++) for (let e = 0; e < ne - 1; e++) {
    const [p00, p01, p10, p11] = [columns[a].right[e], columns[a + 1].left[e], columns[a].right[e + 1], columns[a + 1].left[e + 1]];
    b.quad(p00, p01, p11, p10);
  }
  const top = add(map.centre, [0, 1, 0]);
  const pole = onScalp(map, top, lift(top));
  const c = b.vertex(pole, [0, 1, 0], (region.u0 + region.u1) / 2, region.v1);
  for (let a = 0; a < na; a++) b.triangle(ids[a][ne - 1], columns[a + 1].left[ne - 1], c);
}

/** How a strand path is grown: its lift off the scalp along it (0 root .. 1 tip), and what it may do. */
interface PathRule {
  lift: (p: Vec3, along: number) => number;
  fringe: boolean;
  /** Over the cranium it stays near its layer (else it may stand off, as a hanging tail does). */
  hug: boolean;
  gravityScale: number;
  toGather: boolean;
  /** Ends at the hairline (short or pulled-back hair: it lies on the head and does not hang over the temples or the neck). */
  inside?: boolean;
}

/** A strand's way: points from the root, and its direction at the root (a card's ribbon takes the rest from its rounded curve). */
interface StrandPath {
  points: Vec3[];
  start: Vec3;
}

class Grower {
  private readonly crown: Vec3;
  private readonly partX: number;
  private readonly hit = emptyClosestPoint();
  constructor(
    private readonly style: HairStyle,
    private readonly map: ScalpMap,
    private readonly face: FaceClearance,
    private readonly budget: CardBudget,
    private readonly envelope: (p: Vec3) => number,
    private readonly rnd: () => number,
    private readonly body?: TriangleBvh,
  ) {
    this.crown = onScalp(map, add(map.centre, direction(Math.PI, (50 * Math.PI) / 180)), 0);
    this.partX = style.parting === 'left' ? 2.6 : style.parting === 'right' ? -2.6 : 0;
  }

  private radial(p: Vec3): Vec3 {
    return normalize(sub(p, this.map.centre));
  }

  /**
   * Keeps p at least `lift` off the scalp and out of the face and (tucked) the ears; undefined where the
   * strand must end: in front of the face below its stop, or (`inside`) past the hairline.
   */
  private clear(p: Vec3, lift: number, fringe: boolean, hug: boolean, inside = false): Vec3 | undefined {
    const m = this.map;
    const d = sub(p, m.centre);
    const r = Math.hypot(d[0], d[1], d[2]);
    const min = surfaceRadius(m, p[0], p[1], p[2]) + lift;
    // Over the cranium hair lies on its layer rather than sticking out; below it, it hangs free, unless it stays on the head.
    const max = hug && (d[1] / r > -0.3 || inside) ? min + HUG_SLACK + this.style.lift * 0.15 : Infinity;
    // A point far below the map's surface is beside the neck with the shoulder behind it (keep-outside.ts): a strand falls on.
    let q = (r < min && min - r <= MAX_PUSH) || r > max ? add(m.centre, scale(d, Math.min(max, Math.max(min, r)) / r)) : p;
    const f = this.face;
    // Only a fringe comes down over the forehead; other strands end about the hairline.
    const stop = fringe ? f.hairlineY - this.style.fringe * (f.hairlineY - f.browY) : f.hairlineY - 1;
    if (q[2] > f.front && Math.abs(q[0]) < f.halfWidth && q[1] < Math.max(stop, f.browY + 0.4)) return undefined;
    if (inside && hairlineCoverage(m, q[0], q[1], q[2]) < SHELL_EDGE) return undefined;
    if (this.style.tucked && q[1] < f.earTop + 1 && q[1] > f.earTop - 12 && q[2] > f.earBack && Math.abs(q[0]) > f.halfWidth - 1) q = [q[0], q[1], f.earBack];
    return q;
  }

  /**
   * Hair hanging below the cranium, where the scalp map does not see the neck, shoulders and chest exactly: a point
   * in the body or nearer to it than DRAPE_STANDOFF moves out to that distance, so the strand lies over the shoulder;
   * undefined where it comes to rest on it.
   */
  private drape(p: Vec3 | undefined): Vec3 | undefined {
    if (!p || !this.body || p[1] > this.face.earTop - DRAPE_BELOW_EAR) return p;
    const hit = this.hit;
    if (!this.body.closestPoint(p[0], p[1], p[2], hit, DRAPE_STANDOFF) || (hit.distance >= DRAPE_STANDOFF && !hit.inside)) return p;
    const away = scale(sub(p, [hit.x, hit.y, hit.z]), (hit.inside ? -1 : 1) / Math.max(hit.distance, 1e-6));
    // On a surface facing up (the top of a shoulder) the strand comes to rest: slid along it, it would stick out sideways.
    if (away[1] > REST_SLOPE) return undefined;
    return add([hit.x, hit.y, hit.z], scale(away, DRAPE_STANDOFF));
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

  /** The lift for a strand over the base volume: from just under its surface at the root up to `above` it within the first stretch. */
  private layer(above: number): (p: Vec3, along: number) => number {
    return (p, along) => {
      const rise = smoothstepBetween(0, 0.25, along);
      return this.envelope(p) - ROOT_SINK * (1 - rise) + above * rise;
    };
  }

  /**
   * One clump card: a ribbon of the card texture lying on the base volume (its face turned out from the
   * head, never edge-on to it), root end under the volume's surface, tapering to the texture's points.
   */
  card(b: Builder, rootDir: Vec3): void {
    const s = this.style, rnd = this.rnd;
    const fringe = s.fringe > 0 && rootDir[2] > 0.45 && Math.abs(rootDir[0]) < 0.55 && rootDir[1] > 0;
    // What of a strand stands off the head is not lying along it: an afro's 9 cm strands lie 4.5 cm along its ball.
    const strand = this.lengthAt(rootDir);
    const length = Math.max(0.4 * strand, strand - s.lift) * (0.8 + 0.3 * rnd());
    // Shorter than it is wide, a card reads as a scale on the volume, not as a lock: the volume alone shows such hair.
    if (length < MIN_CARD_LENGTH) return;
    const on = add(this.map.centre, rootDir);
    const root = onScalp(this.map, on, this.envelope(on) - ROOT_SINK);
    const width = Math.min(length < 10 ? 2.2 + 0.8 * rnd() : 2.8 + 1.2 * rnd(), 0.9 + 0.5 * length);
    const rule: PathRule = { lift: this.layer(0.12 + 0.35 * rnd() + 0.1 * s.lift), fringe, hug: s.stand < 0.5, gravityScale: 1, toGather: s.flow === 'gather', inside: !fringe && (strand < SHEET_LENGTH || s.flow === 'gather') };
    const path = this.path(root, this.startDirection(root, this.radial(root), fringe), length, rule);
    if (path) this.ribbon(b, path, width, Math.floor(rnd() * ATLAS.cardColumns));
  }

  /** Grows one strand path from p0 (undefined when it cannot leave its root). */
  private path(p0: Vec3, t0: Vec3, length: number, rule: PathRule, nodes = Math.max(3, Math.min(this.budget.maxNodes, Math.round(2 + length / 3)))): StrandPath | undefined {
    const s = this.style, rnd = this.rnd;
    if (length < 0.3) return undefined;
    const step = length / (nodes - 1);
    const gravity = Math.min(0.5, Math.max(0.08, length / 40)) * (1 - s.stand) * rule.gravityScale;
    const phase = rnd() * Math.PI * 2;
    const points: Vec3[] = [p0];
    let p = p0, t = t0;
    for (let i = 1; i < nodes; i++) {
      const along = (i * step) / length;
      const rad = this.radial(p);
      t = normalize(add(add(t, scale(GRAVITY, gravity)), scale(rad, s.stand * 0.3)));
      let q = add(p, scale(t, step));
      if (s.curl > 0) {
        const side = normalize(cross(t, rad));
        const w = Math.sin(phase + (2 * Math.PI * s.curlRate * i * step) / 10) * s.curl;
        q = add(q, add(scale(side, w * 0.7), scale(rad, Math.abs(w) * 0.3)));
      }
      // Where hair hangs, in short moves, so that a strand meeting the shoulder is pushed over it rather than stepping deep into it.
      const moves = Math.min(p[1], q[1]) < this.face.earTop - DRAPE_BELOW_EAR ? Math.max(1, Math.ceil(step / DRAPE_STEP)) : 1;
      const move = scale(sub(q, p), 1 / moves);
      let cleared: Vec3 | undefined = p;
      for (let k = 0; k < moves && cleared; k++) cleared = this.drape(this.clear(add(cleared, move), rule.lift(q, along), rule.fringe, rule.hug, rule.inside));
      if (!cleared) break;
      t = normalize(sub(cleared, p));
      p = cleared;
      points.push(p);
      // Pulled hair ends where it meets the bun or the tail's root.
      if (rule.toGather && s.gather && Math.hypot(...sub(p, s.gather.at)) < 1.5 + s.gather.bun) break;
    }
    return points.length < 2 ? undefined : { points, start: t0 };
  }

  /** A card along a path, its bends rounded (round-bends.ts): full width at the root, narrowing a little; the texture's root at the root and its tips at the end. */
  private ribbon(b: Builder, path: StrandPath, width: number, column: number, facing?: Vec3): void {
    const [u0, u1] = cardColumn(column);
    const { points, tangents, along } = roundBends(path.points, path.start);
    const n = points.length;
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const p = points[i];
      const rad = facing ?? this.radial(p);
      const side = normalize(cross(tangents[i], rad));
      const w = (width / 2) * (1 - 0.3 * along[i]);
      const v = 0.99 - 0.98 * along[i];
      const [left, right] = [sub(p, scale(side, w)), add(p, scale(side, w))];
      const edge = (e: Vec3) => (facing ? e : this.levelled(p, e));
      ids.push(b.vertex(edge(left), rad, u0, v), b.vertex(edge(right), rad, u1, v));
    }
    for (let i = 0; i + 1 < n; i++) {
      const [a, c, a1, c1] = [ids[2 * i], ids[2 * i + 1], ids[2 * i + 2], ids[2 * i + 3]];
      b.quad(a, a1, c1, c);
    }
  }

  /**
   * A card's edge point moved to stand as far off the scalp as the centreline point p does, where p lies over the
   * cranium (fading out below it, where hair hangs): a card laid flat across a sphere around the centre stands
   * higher at one edge than the other wherever the scalp is not that sphere, and the fit scales each vertex's
   * standoff by the photo's volume (fit-hair.ts), so a card tilted 15 degrees here stood up at 35-45 on a full head.
   */
  private levelled(p: Vec3, edge: Vec3): Vec3 {
    const d = sub(p, this.map.centre);
    const r = Math.hypot(d[0], d[1], d[2]);
    const below = surfaceRadius(this.map, p[0], p[1], p[2]);
    const step = Math.abs(surfaceRadius(this.map, edge[0], edge[1], edge[2]) - below);
    const share = smoothstepBetween(-0.3, -0.1, d[1] / r) * smoothstepBetween(LEVEL_STEP, 0.7 * LEVEL_STEP, step);
    if (share === 0) return edge;
    const level = onScalp(this.map, edge, r - below);
    return add(edge, scale(sub(level, edge), share));
  }

  /**
   * Paths side by side joined into one surface (the sheet region of the texture: u across the paths, v
   * along them), so that hanging hair is a closed curtain with clumped tips rather than separate cards.
   * A path cut short (by the face) still ends in the region's tips. `closed` joins the last path to the first.
   */
  private weave(b: Builder, paths: StrandPath[], closed: boolean, normal: (p: Vec3) => Vec3): void {
    const r = ATLAS.sheet;
    const columns = closed ? [...paths, paths[0]] : paths;
    // The region repeats every SHEET_REPEAT paths (a column of vertices twice at each seam, once with u at either end),
    // so that the clumps are about as wide on the head as their strands are long in texels.
    const ids = columns.map((path, c) => {
      const at = c % SHEET_REPEAT;
      const us = at === 0 && c > 0 && c < columns.length - 1 ? [r.u1, r.u0] : [r.u0 + ((r.u1 - r.u0) * (at === 0 && c > 0 ? SHEET_REPEAT : at)) / SHEET_REPEAT];
      const n = path.points.length;
      return us.map((u) => path.points.map((p, i) => b.vertex(p, normal(p), u, r.v1 - ((r.v1 - r.v0) * i) / (n - 1))));
    });
    for (let c = 0; c + 1 < ids.length; c++) {
      const [a, d] = [ids[c][ids[c].length - 1], ids[c + 1][0]];
      for (let i = 0; i + 1 < Math.min(a.length, d.length); i++) b.quad(a[i], a[i + 1], d[i + 1], d[i]);
    }
  }

  /** Long hair hanging around the head as one sheet over the base volume, from a ring high on the head around all but the face. */
  sheet(b: Builder): void {
    const count = Math.round(this.budget.shellAround * 0.75);
    const rule: PathRule = { lift: this.layer(0.3), fringe: false, hug: true, gravityScale: 1, toGather: false };
    const paths: StrandPath[] = [];
    for (let c = 0; c <= count; c++) {
      const az = SHEET_FACE_SECTOR + ((2 * Math.PI - 2 * SHEET_FACE_SECTOR) * c) / count;
      const on = add(this.map.centre, direction(az, SHEET_ROOT_ELEVATION));
      const root = onScalp(this.map, on, this.envelope(on) - ROOT_SINK);
      const dir = this.radial(root);
      const path = this.path(root, this.startDirection(root, dir, false), this.lengthAt(dir), rule, this.budget.sheetNodes);
      if (path) paths.push(path);
    }
    if (paths.length > 1) this.weave(b, paths, false, (p) => this.radial(p));
  }

  /** A ball of hair at the gather point: an opaque sphere of the base volume's strands, with short curled cards over it. */
  bun(b: Builder, triangles: number): void {
    const g = this.style.gather!;
    const r = ATLAS.shell, around = 12, up = 8;
    const ids: number[][] = [];
    for (let a = 0; a <= around; a++) {
      const u = r.u0 + ((r.u1 - r.u0) * a) / around;
      ids.push(Array.from({ length: up + 1 }, (_, e) => {
        const d = direction((a / around) * 2 * Math.PI, -Math.PI / 2 + (Math.PI * e) / up);
        return b.vertex(add(g.at, scale(d, g.bun * 0.92)), d, u, r.v0 + r.feather + ((r.v1 - r.v0 - r.feather) * e) / up);
      }));
    }
    for (let a = 0; a < around; a++) for (let e = 0; e < up; e++) b.quad(ids[a][e], ids[a + 1][e], ids[a + 1][e + 1], ids[a][e + 1]);
    const start = b.triangles;
    for (let i = 0; b.triangles - start < triangles && i < 400; i++) {
      const d = direction(i * 2.39996, Math.asin(1 - (2 * (i % 60 + 0.5)) / 60));
      const t = normalize(tangential(Math.abs(d[1]) > 0.9 ? [1, 0, 0] : [0, 1, 0], d));
      const points: Vec3[] = [];
      for (let k = 0; k < 4; k++) {
        const ang = (k / 3) * 1.4;
        const dir = normalize(add(scale(d, Math.cos(ang)), scale(t, Math.sin(ang))));
        points.push(add(g.at, scale(dir, g.bun * (1 + 0.04 * k))));
      }
      this.ribbon(b, { points, start: normalize(t) }, 2.6, i % ATLAS.cardColumns, d);
    }
  }

  /** The tail hanging from the gather point: a closed tube of the sheet, spreading a little as it falls, with cards over it. */
  tail(b: Builder, triangles: number): void {
    const g = this.style.gather!;
    const start = b.triangles;
    const rule: PathRule = { lift: () => 0.1, fringe: false, hug: false, gravityScale: 2, toGather: false };
    const rootOf = (a: number): [Vec3, Vec3] => {
      const off: Vec3 = [Math.cos(a) * 2, Math.sin(a) * 1.5, -0.4];
      return [add(g.at, off), normalize([off[0] * 0.25, -1, -0.45 + off[2]])];
    };
    const tube: StrandPath[] = [];
    for (let i = 0; i < 12; i++) {
      const [root, t0] = rootOf((i / 12) * 2 * Math.PI);
      const path = this.path(root, t0, g.tail, rule, this.budget.maxNodes);
      if (path) tube.push(path);
    }
    const axis = (p: Vec3): Vec3 => normalize([p[0] - g.at[0], 0, p[2] - g.at[2] + 2]);
    if (tube.length > 2) this.weave(b, tube, true, axis);
    for (let i = 0; b.triangles - start < triangles && i < 200; i++) {
      const a = (i * 2.39996) % (2 * Math.PI);
      const [root, t0] = rootOf(a);
      const path = this.path(root, t0, g.tail * (0.8 + 0.3 * this.rnd()), rule);
      if (path) this.ribbon(b, path, 2.2, i % ATLAS.cardColumns, normalize(sub(root, g.at)));
    }
  }
}
