import type { Vec3 } from '../../model/avatar.ts';
import { MeshBuilder } from '../mesh/builder.ts';
import { vertex } from '../mesh/vec.ts';
import { smoothstep } from '../mesh/smoothstep.ts';
import { NECK_CUT_Y } from './head-shape.ts';

/**
 * The bust: the neck continues below the head's neck cut into the shoulders and the top of the
 * chest, down to a level cut closed by a flat bottom. Each vertex of the neck cut leads a column
 * in its own vertical half-plane about the neck's axis; the column's profile (distance from the
 * axis against height) only moves outwards and downwards, so columns in different half-planes
 * cannot meet and the bust cannot cross itself.
 */

/** Height of the bust's flat bottom (cm; the chin is at -9.4, the neck cut at -15.5). */
export const BUST_BOTTOM_Y = -36;
/** The neck's axis (x, z), the centre of every column's half-plane. */
export const NECK_AXIS: [number, number] = [0, -6];
/**
 * The neck's line and the shoulder line (out to the shoulder tips, the top of the chest, the trapezius) meet at a
 * corner this fraction of the shoulder's drop below the neck cut. A curve tangent to both rounds the corner off,
 * from the neck cut to FILLET_REACH of the way along the shoulder line: the trapezius sloping from the neck. A
 * quarter-round from the neck down to a level shelf, then a kink onto the shoulder line, read as a cylinder
 * stuck into the shoulders with a crease round its foot.
 */
const NECK_BASE = 0.4;
const FILLET_REACH = 0.5;
/**
 * The torso's outline at the shoulders, seen from above: a superellipse about the axis with half
 * widths to the shoulder tips, the chest and the back (adult means: biacromial breadth 39 cm,
 * chest depth 21 cm).
 */
const OUTLINE = { side: 19.5, front: 11, back: 9.5, exponent: 2.6 };
/**
 * How far below the neck cut the shoulder line ends: at the tips, a slope of about 20 degrees from
 * the neck's base (the acromion about 1.35 head heights below the top of the head); down to the
 * top of the chest in front and the trapezius behind.
 */
const SHOULDER_DROP = { side: 4.4, front: 5, back: 2.5 };
/**
 * The rings crowd towards the neck (ring r at the (r / rings) ** RING_GRADING fraction of a column):
 * the concave turn from the neck onto the shoulders needs them, the flat sides below do not. Even
 * rings left that turn to a single 4 cm segment, a crease that rendered as a line round the neck.
 */
const RING_GRADING = 1.7;
/**
 * How far (cm) the walls fall in from their top to the bottom. At the sides a sculpted bust cuts the arms away
 * (27 cm across at the bottom against 39 at the shoulder tips); the chest and the back recede a little below the
 * pectorals and the shoulder blades. Straight walls read as a block.
 */
const FALL_IN = { side: 6, front: 1, back: 1.5 };
/**
 * The rounded edge where the shoulder top turns down into the arm, chest or back: its horizontal reach (at most;
 * short columns get less) and its height. In front and behind it is tall, as the chest and the upper back curve
 * down from the shoulder line; a round as short as the arm's read as a box's edge in side view.
 */
const EDGE_ROUND = { reach: 3.5, side: 3.5, front: 7, back: 6 };

export interface BustOptions {
  /** Rings between the neck cut and the bottom edge (the last one is the bottom edge). */
  rings: number;
  /** Rings of the flat bottom inside its edge, before the centre. */
  bottomRings: number;
  /** The bottom's UV island: its centre and half sizes; the edge maps onto its ellipse. */
  bottomUv: { centre: [number, number]; half: [number, number] };
}

export interface Bust {
  /** Vertices of the sides (ring by ring, the cut's order within a ring). */
  sides: number[];
  /** Vertices of the flat bottom, its centre last. */
  bottom: number[];
  /** The bottom edge, ordered like the neck cut. */
  edge: number[];
}

/** Distance of the outline from the axis in the horizontal direction (dx, dz) (unit). */
function outlineRadius(dx: number, dz: number): number {
  const depth = dz >= 0 ? OUTLINE.front : OUTLINE.back;
  const e = OUTLINE.exponent;
  return (Math.abs(dx / OUTLINE.side) ** e + Math.abs(dz / depth) ** e) ** (-1 / e);
}

/** Blend of a value given at the sides, the front and the back by direction: sides by dx², front or back by dz. */
function byDirection(values: { side: number; front: number; back: number }, dx: number, dz: number): number {
  const across = dx * dx;
  return across * values.side + (1 - across) * (dz >= 0 ? values.front : values.back);
}

/**
 * A column's profile as (distance from the axis, height) points, densely sampled: from the neck cut
 * a concave turn onto the shoulder line, out to a convex rounded edge and down to the bottom,
 * falling in at the sides.
 */
export function columnProfile(start: number, dx: number, dz: number): [number, number][] {
  const outer = outlineRadius(dx, dz);
  const drop = byDirection(SHOULDER_DROP, dx, dz);
  const baseY = NECK_CUT_Y - NECK_BASE * drop;
  const edgeY = NECK_CUT_Y - drop;
  const round = Math.min(EDGE_ROUND.reach, (outer - start) / 3);
  const roundHeight = Math.max(round, byDirection(EDGE_ROUND, dx, dz));
  const points: [number, number][] = [[start, NECK_CUT_Y]];
  const steps = 24;
  const lineEnd: [number, number] = [outer - round, edgeY];
  // The corner (start, baseY) rounded off from the neck cut to FILLET_REACH of the way along the shoulder line.
  const filletEnd: [number, number] = [start + (lineEnd[0] - start) * FILLET_REACH, baseY + (lineEnd[1] - baseY) * FILLET_REACH];
  roundCorner(points, [start, NECK_CUT_Y], [start, baseY], filletEnd, steps);
  for (let s = 1; s <= steps; s++) points.push([filletEnd[0] + ((lineEnd[0] - filletEnd[0]) * s) / steps, filletEnd[1] + ((lineEnd[1] - filletEnd[1]) * s) / steps]);
  // The shoulder line runs on to the wall; the corner where they would meet is rounded down into the wall.
  const slope = (filletEnd[1] - lineEnd[1]) / (lineEnd[0] - filletEnd[0]);
  roundCorner(points, lineEnd, [outer, edgeY - round * slope], [outer, edgeY - roundHeight], steps);
  const sideTop = lineEnd[1] - roundHeight;
  const taper = byDirection(FALL_IN, dx, dz);
  // The wall leaves the rounded edge straight down, falls in and reaches the bottom straight down again.
  for (let s = 1; s <= steps; s++) points.push([outer - taper * smoothstep(s / steps), sideTop + ((BUST_BOTTOM_Y - sideTop) * s) / steps]);
  return points;
}

/**
 * Appends `steps` points of the quadratic curve from `from` (not appended) to `to` with `corner` as its control point:
 * tangent to the line from `from` to the corner and to the line from the corner to `to`, so it rounds the corner off.
 */
function roundCorner(points: [number, number][], from: [number, number], corner: [number, number], to: [number, number], steps: number): void {
  for (let s = 1; s <= steps; s++) {
    const t = s / steps, a = (1 - t) * (1 - t), b = 2 * t * (1 - t), c = t * t;
    points.push([a * from[0] + b * corner[0] + c * to[0], a * from[1] + b * corner[1] + c * to[1]]);
  }
}

/** Point at arc-length fraction `t` of a polyline. */
function along(points: [number, number][], t: number): [number, number] {
  const lengths = [0];
  for (let i = 1; i < points.length; i++) lengths.push(lengths[i - 1] + Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]));
  const target = t * lengths[lengths.length - 1];
  let i = 1;
  while (i < points.length - 1 && lengths[i] < target) i++;
  const f = (target - lengths[i - 1]) / (lengths[i] - lengths[i - 1] || 1);
  return [points[i - 1][0] + (points[i][0] - points[i - 1][0]) * f, points[i - 1][1] + (points[i][1] - points[i - 1][1]) * f];
}

/**
 * Builds the bust onto `b` below `cut` (the neck cut, ordered as a boundary loop of the head). The
 * rings sit at equal fractions of each column's length; the bottom is filled by rings shrinking
 * towards the centre of the bottom edge, so the cut is clean and flat.
 */
export function buildBust(b: MeshBuilder, cut: readonly number[], options: BustOptions): Bust {
  const columns = cut.map((v) => {
    const p = vertex(b.positions, v);
    const dx = p[0] - NECK_AXIS[0], dz = p[2] - NECK_AXIS[1];
    const start = Math.hypot(dx, dz);
    return { dx: dx / start, dz: dz / start, points: columnProfile(start, dx / start, dz / start) };
  });
  const sides: number[] = [];
  let previous = [...cut];
  for (let r = 1; r <= options.rings; r++) {
    const ring = columns.map((c) => {
      const [radius, y] = r === options.rings ? [c.points[c.points.length - 1][0], BUST_BOTTOM_Y] : along(c.points, (r / options.rings) ** RING_GRADING);
      // The sides' UVs are laid out with the back of the head's (back-island.ts).
      return b.vertex([NECK_AXIS[0] + c.dx * radius, y, NECK_AXIS[1] + c.dz * radius], [0, 0]);
    });
    b.strip(previous, ring);
    sides.push(...ring);
    previous = ring;
  }
  const edge = previous;
  const edgePoints = edge.map((v) => vertex(b.positions, v));
  const centre: Vec3 = [NECK_AXIS[0], BUST_BOTTOM_Y, edgePoints.reduce((s, p) => s + p[2], 0) / edgePoints.length];
  const { centre: uvC, half } = options.bottomUv;
  // The edge's UVs on the island's ellipse, by the angle of each edge vertex about the centre.
  const angle = edgePoints.map((p) => Math.atan2(p[2] - centre[2], p[0] - centre[0]));
  const uvAt = (i: number, w: number): [number, number] => [uvC[0] + half[0] * w * Math.cos(angle[i]), uvC[1] + half[1] * w * Math.sin(angle[i])];
  const bottom: number[] = [];
  // The rim is a UV seam: the bottom has its own copies of the edge's vertices (same positions).
  const rim = edge.map((_, i) => b.vertex(edgePoints[i], uvAt(i, 1)));
  bottom.push(...rim);
  let inner = rim;
  for (let r = 1; r <= options.bottomRings; r++) {
    const w = 1 - r / (options.bottomRings + 1);
    const ring = edgePoints.map((p, i) => b.vertex([centre[0] + (p[0] - centre[0]) * w, BUST_BOTTOM_Y, centre[2] + (p[2] - centre[2]) * w], uvAt(i, w)));
    b.strip(inner, ring);
    bottom.push(...ring);
    inner = ring;
  }
  const apex = b.vertex(centre, uvC);
  b.fan(inner, apex);
  bottom.push(apex);
  return { sides, bottom, edge };
}
