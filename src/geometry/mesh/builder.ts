import type { Vec3 } from '../../model/avatar.ts';

/**
 * Grows an indexed triangle mesh. Loops follow the convention of `boundaryLoops`: the triangles
 * already built use the half-edges loop[i] -> loop[i+1], so what closes a loop uses them reversed.
 */
export class MeshBuilder {
  readonly positions: number[] = [];
  readonly uvs: number[] = [];
  readonly indices: number[] = [];

  get vertexCount(): number {
    return this.positions.length / 3;
  }

  vertex(p: Vec3, uv: [number, number]): number {
    this.positions.push(p[0], p[1], p[2]);
    this.uvs.push(uv[0], uv[1]);
    return this.vertexCount - 1;
  }

  triangle(a: number, b: number, c: number): void {
    this.indices.push(a, b, c);
  }

  /**
   * Joins loop `inner` (already bordered by triangles) to the new loop `outer` with one strip.
   * Both loops are closed and start at corresponding places; `tInner`/`tOuter` (ascending in
   * [0,1)) say where each vertex lies along its loop, and the strip advances whichever loop is
   * behind. Afterwards `outer` follows the same convention as `inner`.
   */
  stitch(inner: readonly number[], outer: readonly number[], tInner: readonly number[], tOuter: readonly number[]): void {
    const n = inner.length, m = outer.length;
    let i = 0, j = 0;
    while (i < n || j < m) {
      const nextInner = i + 1 < n ? tInner[i + 1] : 1;
      const nextOuter = j + 1 < m ? tOuter[j + 1] : 1;
      const a = inner[i % n], c = outer[j % m];
      if (j >= m || (i < n && nextInner <= nextOuter)) {
        this.triangle(inner[(i + 1) % n], a, c);
        i++;
      } else {
        this.triangle(a, c, outer[(j + 1) % m]);
        j++;
      }
    }
  }

  /** Stitches two loops of equal length vertex by vertex. */
  strip(inner: readonly number[], outer: readonly number[]): void {
    const t = inner.map((_, k) => k / inner.length);
    this.stitch(inner, outer, t, t);
  }

  /**
   * Closes `loop` with new rings and an apex. Each ring has a whole multiple of the loop's
   * vertex count: point j of a ring of s times the length sits at loop position j / s. Without
   * `island` the UVs shrink the loop's UV outline towards its centre by equal steps, so the cap
   * fills the loop's UV hole without overlap. With `island` the cap gets a UV disc of its own:
   * the loop on its rim (the loop's vertices keep their UVs; `islandLoopUvs` gives the rim's for
   * the caller to split a seam there), the apex at its centre, and each band between rings UV
   * area in proportion to its area on the surface (no band squeezed into a sliver). The disc
   * turns the way the loop's own UVs do, so its triangles face the same way in UV space as the
   * rest. Returns the new vertices.
   */
  cap(loop: readonly number[], rings: readonly Vec3[][], apex: Vec3, island?: UvDisc): number[] {
    const n = loop.length;
    const uvCentre = [0, 0];
    for (const v of loop) for (let k = 0; k < 2; k++) uvCentre[k] += this.uvs[2 * v + k] / n;
    const loopUv = (position: number, k: number) => {
      const i = Math.floor(position) % n, f = position - Math.floor(position);
      return this.uvs[2 * loop[i] + k] * (1 - f) + this.uvs[2 * loop[(i + 1) % n] + k] * f;
    };
    const steps = rings.length + 1;
    const disc = island && { ...island, turn: Math.sign(this.uvArea(loop)) };
    const shrink = disc ? areaShrink(loop.map((v) => [this.positions[3 * v], this.positions[3 * v + 1], this.positions[3 * v + 2]] as Vec3), rings, apex) : rings.map((_, r) => (r + 1) / steps);
    const added: number[] = [];
    let previous = loop;
    rings.forEach((ring, r) => {
      const w = shrink[r];
      const per = ring.length / n;
      const uv = (j: number): [number, number] => (disc ? discUv(disc, j / ring.length, w) : ([0, 1].map((k) => loopUv(j / per, k) * (1 - w) + uvCentre[k] * w) as [number, number]));
      const next = ring.map((p, j) => this.vertex(p, uv(j)));
      this.stitch(previous, next, previous.map((_, i) => i / previous.length), next.map((_, j) => j / next.length));
      added.push(...next);
      previous = next;
    });
    const top = this.vertex(apex, island ? island.centre : [uvCentre[0], uvCentre[1]]);
    this.fan(previous, top);
    return [...added, top];
  }

  /** The UVs on the rim of a cap's `island` (see `cap`) for each vertex of its loop. */
  islandLoopUvs(loop: readonly number[], island: UvDisc): [number, number][] {
    const disc = { ...island, turn: Math.sign(this.uvArea(loop)) };
    return loop.map((_, i) => discUv(disc, i / loop.length, 0));
  }

  /** Signed area of a loop's UV polygon. */
  private uvArea(loop: readonly number[]): number {
    let area = 0;
    loop.forEach((v, i) => {
      const w = loop[(i + 1) % loop.length];
      area += this.uvs[2 * v] * this.uvs[2 * w + 1] - this.uvs[2 * w] * this.uvs[2 * v + 1];
    });
    return area / 2;
  }

  /** Closes a loop with a fan around the vertex `apex`. */
  fan(loop: readonly number[], apex: number): void {
    for (let i = 0; i < loop.length; i++) this.triangle(loop[(i + 1) % loop.length], loop[i], apex);
  }
}

/** A disc in UV space (centre, radius) that a cap is laid out in. */
export interface UvDisc {
  centre: [number, number];
  radius: number;
}

/** A point of a cap's disc: `along` the loop (0..1, turning as `turn`), `shrink` of the way to the centre. */
function discUv(disc: UvDisc & { turn: number }, along: number, shrink: number): [number, number] {
  const angle = disc.turn * 2 * Math.PI * along, r = disc.radius * (1 - shrink);
  return [disc.centre[0] + r * Math.cos(angle), disc.centre[1] + r * Math.sin(angle)];
}

/**
 * Per ring of a cap, how far its UVs shrink towards the centre (0 the loop, 1 the centre) so that the
 * UV area inside each ring, which goes with the square of what is left, matches the share of the
 * cap's surface inside it. Bands are measured as mean circumference times the distance between rings.
 */
function areaShrink(loop: Vec3[], rings: readonly Vec3[][], apex: Vec3): number[] {
  const perimeter = (ring: readonly Vec3[]) => ring.reduce((s, p, i) => s + distance(p, ring[(i + 1) % ring.length]), 0);
  const centre = (ring: readonly Vec3[]) => ring.reduce((c, p) => [c[0] + p[0] / ring.length, c[1] + p[1] / ring.length, c[2] + p[2] / ring.length] as Vec3, [0, 0, 0] as Vec3);
  const all = [loop, ...rings];
  const bands = all.map((ring, r) => {
    if (r === all.length - 1) return (perimeter(ring) / 2) * distance(centre(ring), apex);
    const next = all[r + 1];
    const gap = ring.reduce((s, p, i) => s + distance(p, next[Math.floor((i * next.length) / ring.length)]), 0) / ring.length;
    return ((perimeter(ring) + perimeter(next)) / 2) * gap;
  });
  const total = bands.reduce((s, a) => s + a, 0);
  let inside = total;
  // Each ring's UV circle stays inside the chords of the ring before it, or a triangle between them turns over in
  // UV space: a band too short for its share of the area (a stem flaring from a small opening) is widened.
  let before = { radius: 1, points: loop.length };
  return rings.map((ring, r) => {
    inside -= bands[r];
    const radius = Math.min(Math.sqrt(Math.max(0, inside) / total), before.radius * Math.cos(Math.PI / before.points) * CHORD_CLEARANCE);
    before = { radius, points: ring.length };
    return 1 - radius;
  });
}
/** The share of a chord's distance from the centre that the next ring's circle may reach. */
const CHORD_CLEARANCE = 0.98;

const distance = (a: Vec3, b: Vec3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** Where each vertex of a closed loop lies along it, by arc length, starting at 0. */
export function loopParameters(positions: ArrayLike<number>, loop: readonly number[]): number[] {
  const cumulative = [0];
  for (let i = 0; i < loop.length; i++) {
    const a = 3 * loop[i], b = 3 * loop[(i + 1) % loop.length];
    const d = Math.hypot(positions[b] - positions[a], positions[b + 1] - positions[a + 1], positions[b + 2] - positions[a + 2]);
    cumulative.push(cumulative[i] + d);
  }
  const total = cumulative[loop.length];
  return cumulative.slice(0, loop.length).map((c) => c / total);
}
