import { triangleBoxes } from '../mesh/box-grid.ts';
import { inBoxAround, trianglesWithCornerIn } from '../mesh/near-points.ts';
import { rayTriangle, trianglesIntersect } from '../mesh/triangle-tests.ts';
import { sub, vertex } from '../mesh/vec.ts';
import type { HeadTemplate } from '../template/types.ts';

/**
 * Lash cards ride on one skin triangle each (bound-parts.ts), which a closing lid turns and shears with the skin
 * round it: on fitted heads the cards then cut the lid they ride on (the upper lid's skin bulges over its roots as it
 * moves out over the lower lid) and the closed upper lid cuts the lower lashes' roots (at blink 652 upper and 214
 * lower pairs over the 36 eyes of the test photos; none on the templates). As real lashes pressed against skin, a
 * column whose card cuts the head turns about its root away from that skin, a step at a time, and one cut at its
 * root moves off the skin, until no card cuts the head.
 */
const STEP = {
  /** Radians a column turns per step. */
  turn: 0.05,
  /** cm a column's root moves off the skin per step. */
  shift: 0.005,
  /** The most steps (2.3 rad, 0.2 cm). */
  most: 45,
};
/** Head triangles this far (cm) outside where a lash column can go cannot meet it. */
const MARGIN = 0.1;
/** Tolerance of the crossing test, as `countIntersectionsBetween`'s (mesh/checks.ts), so both find the same pairs. */
const TOUCH_EPS = 1e-6;

/**
 * Moves the lash vertices `lashes` (placed on the shaped head `head`, in place) clear of the head (unless STEP.most
 * steps do not do it: on the 18 test photos' heads no shape needed more than 31 on 2.0, 20 on 1.6). Given `rest`
 * (the neutral head and the lashes on it, already clear), only the skin the shape moved from it, and the skin round
 * the columns it moved, are looked at: a still column among still skin stays as it is. Without it the head is the
 * neutral one, whose fitted lids can lie over where their triangles put the lashes: every column and all the skin
 * round it are. Given `rest`, when the shape moved any lash, its frames on the way (FRAMES: the deltas taken
 * straight, as an animation blends them) are cleared too: a column turned in the shape can pass through the part-moved
 * lid. Its move in a frame, scaled to the whole shape, is where the shape is cleared from again.
 */
export function keepLashesClear(template: HeadTemplate, head: ArrayLike<number>, lashes: Float32Array, rest?: { head: ArrayLike<number>; lashes: ArrayLike<number> }): void {
  const followed = lashes.slice();
  clear(template, head, lashes, rest);
  if (!rest || same(lashes, followed)) return;
  for (let pass = 0; pass < FRAME_PASSES; pass++) {
    let changed = false;
    for (const t of FRAMES) {
      const frame = partWay(rest.lashes, lashes, t), before = frame.slice();
      clear(template, partWay(rest.head, head, t), frame, rest);
      if (same(frame, before)) continue;
      for (let i = 0; i < lashes.length; i++) lashes[i] = rest.lashes[i] + (frame[i] - rest.lashes[i]) / t;
      clear(template, head, lashes, rest);
      changed = true;
    }
    if (!changed) return;
  }
}

/**
 * The frames of a shape on its way (its weight) that are cleared as well: half way (on 2.0, 12 pairs half way to
 * eyeBlinkLeft on 3 of the 18 heads) and three quarters (3 pairs on p02-a's browDownRight, with half way cleared).
 * A frame's change moves the shape's lashes, which can make another frame cross: at most FRAME_PASSES rounds.
 */
const FRAMES = [0.5, 0.75];
const FRAME_PASSES = 2;

/** Share `t` of the way from `from` to `to`. */
function partWay(from: ArrayLike<number>, to: ArrayLike<number>, t: number): Float32Array {
  const out = new Float32Array(to.length);
  for (let i = 0; i < out.length; i++) out[i] = from[i] + (to[i] - from[i]) * t;
  return out;
}

function same(a: Float32Array, b: Float32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** keepLashesClear on one frame. */
function clear(template: HeadTemplate, head: ArrayLike<number>, lashes: Float32Array, rest?: { head: ArrayLike<number>; lashes: ArrayLike<number> }): void {
  const roots = template.lashRoots, cards = template.parts.eyelashes.indices, along = sharesAlong(template);
  const restHead = rest?.head ?? head;
  const moved = new Uint8Array(roots.length).fill(rest ? 0 : 1);
  if (rest) {
    for (let v = 0; v < roots.length; v++) {
      if (lashes[3 * v] !== rest.lashes[3 * v] || lashes[3 * v + 1] !== rest.lashes[3 * v + 1] || lashes[3 * v + 2] !== rest.lashes[3 * v + 2]) moved[roots[v]] = 1;
    }
  }
  const near = headNearLashes(head, restHead, candidates(template, restHead, rest?.lashes ?? lashes), lashes, roots, moved);
  if (near.length === 0) return;
  const skinBoxes = triangleBoxes(head, 3, near);
  const still = new Uint8Array(near.length / 3);
  for (let t = 0; t < still.length; t++) {
    still[t] = 1;
    for (let k = 0; k < 3; k++) {
      const v = 3 * near[3 * t + k];
      if (head[v] !== restHead[v] || head[v + 1] !== restHead[v + 1] || head[v + 2] !== restHead[v + 2]) still[t] = 0;
    }
  }
  const pairs: Pairs = { positions: new Float64Array(head.length + lashes.length), skin: near, skinBoxes, still, cells: new SkinCells(skinBoxes), seen: new Int32Array(near.length / 3).fill(-1), cards: new Uint32Array(cards.length) };
  pairs.positions.set(head);
  for (let i = 0; i < cards.length; i++) pairs.cards[i] = cards[i] + head.length / 3;
  // Per column (by its root vertex): the summed normals of the skin it cuts, away from which it turns or moves; for
  // its root, those of the moved and the still skin apart.
  const turn = new Map<number, number[]>(), shift = new Map<number, number[]>(), held = new Map<number, number[]>();
  // The roots once caught between still and moved skin, and the still skin's normals there: moved off the moved skin
  // alone they would go back into the still skin, so they keep sliding along it.
  const caught = new Map<number, number[]>();
  // The columns moved since the last look (all at first): only their triangles can cross anew, the skin stays.
  const active = new Uint8Array(roots.length).fill(1);
  // Per card triangle, 1 where one of its columns is active: the triangles looked at.
  const looked = new Uint8Array(cards.length / 3);
  for (let step = 0; step < STEP.most; step++) {
    pairs.positions.set(lashes, head.length);
    turn.clear();
    shift.clear();
    held.clear();
    for (let t = 0; t < looked.length; t++) looked[t] = active[roots[cards[3 * t]]] + active[roots[cards[3 * t + 1]]] + active[roots[cards[3 * t + 2]]] > 0 ? 1 : 0;
    for (const { card, skin, normal, still: isStill } of crossingsOf(pairs, looked)) {
      // A cut in a column's root half is not undone by turning about the root (turned, a point moves by its distance
      // from it): where on the card it lies, not which vertices its triangle has (a 2-row card's all hold a root).
      const atRoot = crossingShare(pairs, cards, card, skin, along) < ROOT_HALF;
      const into = atRoot ? (isStill ? held : shift) : turn;
      for (let k = 0; k < 3; k++) {
        const root = roots[cards[card + k]];
        const away = atRoot && !isStill && sweepsBack(head, restHead, skin, normal, lashes, root) ? -1 : 1;
        const sum = into.get(root) ?? [0, 0, 0];
        for (let m = 0; m < 3; m++) sum[m] += away * normal[m];
        into.set(root, sum);
      }
    }
    if (shift.size === 0 && held.size === 0 && turn.size === 0) return;
    active.fill(0);
    for (const [root, h] of held) {
      if (shift.has(root)) caught.set(root, h);
      else shift.set(root, h);
    }
    for (const [root, h] of caught) if (shift.has(root)) shift.set(root, slide(shift.get(root)!, h));
    for (const [root, n] of shift) {
      const length = Math.hypot(n[0], n[1], n[2]) || 1;
      for (let v = 0; v < roots.length; v++) if (roots[v] === root) for (let k = 0; k < 3; k++) lashes[3 * v + k] += (STEP.shift * n[k]) / length;
      active[root] = 1;
    }
    for (const [root, n] of turn) {
      turnColumn(lashes, roots, root, n);
      active[root] = 1;
    }
  }
}

/** The head's and the cards' triangles, their vertices in one array (the cards' after the head's). */
interface Pairs {
  positions: Float64Array;
  /** The skin's triangles (head vertex indices) and their boxes, which stay while the cards move. */
  skin: ArrayLike<number>;
  skinBoxes: Float64Array;
  /** Per skin triangle, 1 if the shape left it where it is on the neutral head. */
  still: Uint8Array;
  /** The skin's triangles by the grid cells (CELL) their boxes cover; per skin triangle, the last card tested with it. */
  cells: SkinCells;
  seen: Int32Array;
  /** The cards' triangles, their vertices numbered after the head's. */
  cards: Uint32Array;
}

/** A card triangle (its index position in the lash mesh, a multiple of 3) cutting a skin triangle. */
interface Crossing {
  card: number;
  /** The skin triangle's vertices' coordinate offsets into `Pairs.positions`, its unit normal, and whether it is still. */
  skin: number[];
  normal: number[];
  still: boolean;
}

/**
 * The crossing pairs of the card triangles `looked` takes (per card triangle, 1 to look) with the skin, in the order of
 * the cards. The skin stays while the cards move: its grid is made once, each card looks only in the cells its box
 * covers. A list, not a visitor: visitor closures made per call were built into this function's compiled code as
 * constants that died with the avatar, and it was compiled again on every one.
 */
function crossingsOf(pairs: Pairs, looked: Uint8Array): Crossing[] {
  const { positions, skin, skinBoxes, still, cells, seen, cards } = pairs;
  const cardBoxes = triangleBoxes(positions, 3, cards);
  const out: Crossing[] = [];
  const first = [0, 0, 0], second = [0, 0, 0];
  seen.fill(-1);
  for (let card = 0; card < cards.length / 3; card++) {
    if (looked[card] !== 1) continue;
    const [x0, y0, z0, x1, y1, z1] = cellRange(cardBoxes, card);
    for (let x = x0; x <= x1; x++)
      for (let y = y0; y <= y1; y++)
        for (let z = z0; z <= z1; z++) {
          const at = cells.cell(x, y, z);
          if (at < 0) continue;
          for (let e = cells.start[at]; e < cells.start[at + 1]; e++) {
            const t = cells.members[e];
            if (seen[t] === card || !boxesOverlap(skinBoxes, t, cardBoxes, card)) continue;
            seen[t] = card;
            for (let k = 0; k < 3; k++) {
              first[k] = 3 * skin[3 * t + k];
              second[k] = 3 * cards[3 * card + k];
            }
            if (trianglesIntersect(positions, first, second, TOUCH_EPS)) out.push({ card: 3 * card, skin: first.slice(), normal: normalOf(positions, first), still: still[t] === 1 });
          }
        }
  }
  return out;
}

/** Cuts nearer a column's root than this share of its length are undone by moving the root, the rest by turning. */
const ROOT_HALF = 0.5;

const sharesOf = new WeakMap<HeadTemplate, Float64Array>();

/** Per lash vertex, how far along its column it lies on the template (0 at the root, 1 at the tip). */
function sharesAlong(template: HeadTemplate): Float64Array {
  let shares = sharesOf.get(template);
  if (!shares) {
    const roots = template.lashRoots, p = template.parts.eyelashes.positions;
    const fromRoot = Float64Array.from(roots, (root, v) => Math.hypot(p[3 * v] - p[3 * root], p[3 * v + 1] - p[3 * root + 1], p[3 * v + 2] - p[3 * root + 2]));
    const longest = new Map<number, number>();
    roots.forEach((root, v) => longest.set(root, Math.max(longest.get(root) ?? 0, fromRoot[v])));
    sharesOf.set(template, (shares = fromRoot.map((d, v) => d / (longest.get(roots[v]) || 1))));
  }
  return shares;
}

/**
 * How far along its columns the card triangle at index position `card` (of the lash mesh's `cards`) meets the skin
 * triangle `skin` (coordinate offsets into `pairs.positions`): the least share (`along`) over the points where an edge
 * of either passes through the other.
 */
function crossingShare(pairs: Pairs, cards: ArrayLike<number>, card: number, skin: number[], along: Float64Array): number {
  // No closures made per call: their optimised code died with them, compiled again every job.
  const p = pairs.positions;
  const corners = [vertex(p, pairs.cards[card]), vertex(p, pairs.cards[card + 1]), vertex(p, pairs.cards[card + 2])];
  const shares = [along[cards[card]], along[cards[card + 1]], along[cards[card + 2]]];
  const skinCorners = [vertex(p, skin[0] / 3), vertex(p, skin[1] / 3), vertex(p, skin[2] / 3)];
  let least = 1;
  for (let k = 0; k < 3; k++) {
    const a = corners[k], b = corners[(k + 1) % 3];
    const edge = rayTriangle(a, sub(b, a), skinCorners[0], skinCorners[1], skinCorners[2]);
    if (edge && edge.t >= 0 && edge.t <= 1 && edge.u >= 0 && edge.v >= 0 && edge.u + edge.v <= 1) least = Math.min(least, shares[k] + (shares[(k + 1) % 3] - shares[k]) * edge.t);
    const c = skinCorners[k], d = skinCorners[(k + 1) % 3];
    const through = rayTriangle(c, sub(d, c), corners[0], corners[1], corners[2]);
    if (through && through.t >= 0 && through.t <= 1 && through.u >= 0 && through.v >= 0 && through.u + through.v <= 1) {
      least = Math.min(least, (1 - through.u - through.v) * shares[0] + through.u * shares[1] + through.v * shares[2]);
    }
  }
  return least;
}

/** The grid's cell (cm): about a lash card triangle's width, a few lid triangles. */
const CELL = 0.2;

/** The lowest and highest cell (x, y, z) box i covers. */
function cellRange(boxes: Float64Array, i: number): number[] {
  return [0, 1, 2, 3, 4, 5].map((k) => Math.floor(boxes[6 * i + k] / CELL));
}

/**
 * The skin's triangles by the cells their boxes cover, in a table over the cells of the box round them all (a few
 * thousand cells round the eyes): each cell's triangles in order, as `members[start[cell]]` up to `start[cell + 1]`.
 */
class SkinCells {
  readonly start: Int32Array;
  readonly members: Int32Array;
  private readonly low = [Infinity, Infinity, Infinity];
  private readonly size = [0, 0, 0];

  constructor(boxes: Float64Array) {
    const count = boxes.length / 6;
    const ranges = new Int32Array(6 * count);
    const high = [-Infinity, -Infinity, -Infinity];
    for (let t = 0; t < count; t++) {
      for (let k = 0; k < 6; k++) ranges[6 * t + k] = Math.floor(boxes[6 * t + k] / CELL);
      for (let k = 0; k < 3; k++) {
        this.low[k] = Math.min(this.low[k], ranges[6 * t + k]);
        high[k] = Math.max(high[k], ranges[6 * t + 3 + k]);
      }
    }
    for (let k = 0; k < 3; k++) this.size[k] = count > 0 ? high[k] - this.low[k] + 1 : 0;
    // Counted per cell, then each triangle put in its cells' places, in order.
    this.start = new Int32Array(this.size[0] * this.size[1] * this.size[2] + 1);
    this.walk(ranges);
    for (let c = 1; c < this.start.length; c++) this.start[c] += this.start[c - 1];
    this.members = new Int32Array(this.start[this.start.length - 1]);
    this.walk(ranges, this.start.slice(0, -1));
  }

  /** Every (cell, triangle) entry of `ranges`, triangles in order: counted into `start`, or with `fill` put in `members`. */
  private walk(ranges: Int32Array, fill?: Int32Array): void {
    const [, ny, nz] = this.size, [lx, ly, lz] = this.low;
    for (let t = 0; t < ranges.length / 6; t++) {
      const r = 6 * t;
      for (let x = ranges[r] - lx; x <= ranges[r + 3] - lx; x++)
        for (let y = ranges[r + 1] - ly; y <= ranges[r + 4] - ly; y++)
          for (let z = ranges[r + 2] - lz; z <= ranges[r + 5] - lz; z++) {
            const cell = (x * ny + y) * nz + z;
            if (fill) this.members[fill[cell]++] = t;
            else this.start[cell + 1]++;
          }
    }
  }

  /** The cell's number in the table, -1 outside it. */
  cell(x: number, y: number, z: number): number {
    const i = x - this.low[0], j = y - this.low[1], k = z - this.low[2];
    if (i < 0 || j < 0 || k < 0 || i >= this.size[0] || j >= this.size[1] || k >= this.size[2]) return -1;
    return (i * this.size[1] + j) * this.size[2] + k;
  }
}

/**
 * Does the moved skin triangle `skin` (coordinate offsets into `head`) come towards the root at vertex `root` of
 * `lashes` from behind its own face (its normal `normal`)? A closing lid's margin is skin facing both ways (the front,
 * and the back that faced the eyeball), whose normals cancel at its edge: the root under it is pushed the way the
 * lid moves, as it sweeps over it, not back into it. Skin moving away from the root keeps its own normal.
 */
function sweepsBack(head: ArrayLike<number>, restHead: ArrayLike<number>, skin: number[], normal: number[], lashes: Float32Array, root: number): boolean {
  let along = 0, towards = 0;
  for (const v of skin) {
    for (let m = 0; m < 3; m++) {
      const moved = head[v + m] - restHead[v + m];
      along += moved * normal[m];
      towards += moved * (lashes[3 * root + m] - head[v + m]);
    }
  }
  return towards > 0 && along < 0;
}

/** How far off the still skin (a share of the push along it) a root caught under moving skin slides. */
const SLIDE_OFF = 0.25;

/**
 * Which way a root moves that cuts skin the shape moved over it (the summed normals `moving`) and is caught between
 * it and still skin it rides on (the summed normals `still`: a lower lash root under the closing upper lid): moving
 * off both would push it back and forth between them, so it slides along the still skin, out from under the moved
 * skin, and a little off it.
 */
function slide(moving: number[], still: number[]): number[] {
  const length = Math.hypot(still[0], still[1], still[2]) || 1, h = still.map((x) => x / length);
  const along = moving[0] * h[0] + moving[1] * h[1] + moving[2] * h[2], off = SLIDE_OFF * Math.hypot(moving[0], moving[1], moving[2]);
  return moving.map((x, k) => x - (along - off) * h[k]);
}

/** How far (cm) any shape moves a lash or the skin round it, at most: a lid's whole travel. */
const REACH = 1.5;

/** The head's triangles near the lashes on the neutral head (indices) and their boxes there (triangleBoxes'). */
interface Candidates {
  indices: Uint32Array;
  boxes: Float64Array;
}

const candidatesOf = new WeakMap<ArrayLike<number>, Candidates>();

/**
 * The head's triangles that lie within REACH of the lashes on the neutral head, and their boxes: found once per avatar
 * (per neutral head array, which is not moved while its lashes are placed and its shapes made).
 */
function candidates(template: HeadTemplate, restHead: ArrayLike<number>, restLashes: ArrayLike<number>): Candidates {
  let found = candidatesOf.get(restHead);
  if (!found) {
    const indices = trianglesWithCornerIn(template.head.indices, inBoxAround(restHead, restLashes, REACH));
    candidatesOf.set(restHead, (found = { indices, boxes: triangleBoxes(restHead, 3, indices) }));
  }
  return found;
}

/**
 * The head's triangles (indices, among `indices`) within reach of a lash column (as far as it can turn and move)
 * that are in play: the moved skin near any column, and all the skin near a column that moved or has moved skin
 * near it (moved skin can push it into still skin).
 */
function headNearLashes(head: ArrayLike<number>, rest: ArrayLike<number>, around: Candidates, lashes: Float32Array, roots: Uint32Array, moved: Uint8Array): number[] {
  // Per column its root and how far it reaches: a column turns about its root and moves off the skin, all within
  // its length of the root and the most it moves (besides MARGIN).
  const columns = [...new Set(roots)];
  const at = new Map(columns.map((root, c) => [root, c]));
  const reach = new Float64Array(columns.length).fill(MARGIN + STEP.most * STEP.shift);
  for (let v = 0; v < roots.length; v++) {
    const r = 3 * roots[v], c = at.get(roots[v])!;
    reach[c] = Math.max(reach[c], MARGIN + STEP.most * STEP.shift + Math.hypot(lashes[3 * v] - lashes[r], lashes[3 * v + 1] - lashes[r + 1], lashes[3 * v + 2] - lashes[r + 2]));
  }
  const boxes = new Float64Array(6 * columns.length);
  for (let c = 0; c < columns.length; c++) {
    for (let k = 0; k < 3; k++) {
      boxes[6 * c + k] = lashes[3 * columns[c] + k] - reach[c];
      boxes[6 * c + 3 + k] = lashes[3 * columns[c] + k] + reach[c];
    }
  }
  const all = unionOf(boxes, columns.map((_, c) => c));
  // The columns in play so far, and the others: a moved triangle marks those of the others it reaches, and is kept
  // if it reaches any column (most reach many: the first found in play will do).
  const playing: number[] = [], unplayed: number[] = [];
  for (let c = 0; c < columns.length; c++) (moved[columns[c]] ? playing : unplayed).push(c);
  const near: number[] = [], still: number[] = [];
  const { indices, boxes: restBoxes } = around;
  const box = new Float64Array(6);
  for (let t = 0; t < indices.length; t += 3) {
    let isStill = true;
    for (let k = 0; k < 9 && isStill; k++) {
      const a = 3 * indices[t + Math.floor(k / 3)] + (k % 3);
      isStill = head[a] === rest[a];
    }
    if (isStill) {
      if (boxesOverlap(restBoxes, t / 3, all, 0)) still.push(t);
      continue;
    }
    for (let k = 0; k < 3; k++) {
      const ha = head[3 * indices[t] + k], hb = head[3 * indices[t + 1] + k], hc = head[3 * indices[t + 2] + k];
      box[k] = ha < hb ? (ha < hc ? ha : hc) : hb < hc ? hb : hc;
      box[k + 3] = ha > hb ? (ha > hc ? ha : hc) : hb > hc ? hb : hc;
    }
    if (!boxesOverlap(box, 0, all, 0)) continue;
    let kept = false;
    for (let u = 0; u < unplayed.length; ) {
      const c = unplayed[u];
      if (!boxesOverlap(box, 0, boxes, c)) {
        u++;
        continue;
      }
      playing.push(c);
      unplayed[u] = unplayed[unplayed.length - 1];
      unplayed.pop();
      kept = true;
    }
    if (kept || overlapsAnyAt(box, 0, boxes, playing)) near.push(indices[t], indices[t + 1], indices[t + 2]);
  }
  const reached = unionOf(boxes, playing);
  for (const t of still) {
    if (boxesOverlap(restBoxes, t / 3, reached, 0) && overlapsAnyAt(restBoxes, t / 3, boxes, playing)) near.push(indices[t], indices[t + 1], indices[t + 2]);
  }
  return near;
}

/** Whether box i of `of` overlaps any of boxes `which` of `boxes`. */
function overlapsAnyAt(of: ArrayLike<number>, i: number, boxes: Float64Array, which: number[]): boolean {
  for (const c of which) if (boxesOverlap(of, i, boxes, c)) return true;
  return false;
}

/** The box round boxes `which` of `boxes`. */
function unionOf(boxes: Float64Array, which: number[]): number[] {
  const union = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (const c of which) {
    for (let k = 0; k < 3; k++) {
      union[k] = Math.min(union[k], boxes[6 * c + k]);
      union[k + 3] = Math.max(union[k + 3], boxes[6 * c + 3 + k]);
    }
  }
  return union;
}

/** Do box i of `a` and box j of `b` (triangleBoxes': three minima, three maxima) overlap? */
function boxesOverlap(a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): boolean {
  for (let d = 0; d < 3; d++) if (a[6 * i + d] > b[6 * j + 3 + d] || b[6 * j + d] > a[6 * i + 3 + d]) return false;
  return true;
}

/** The unit normal of the triangle at coordinate offsets `t` (its winding's). */
function normalOf(p: Float64Array, t: number[]): number[] {
  const ux = p[t[1]] - p[t[0]], uy = p[t[1] + 1] - p[t[0] + 1], uz = p[t[1] + 2] - p[t[0] + 2];
  const vx = p[t[2]] - p[t[0]], vy = p[t[2] + 1] - p[t[0] + 1], vz = p[t[2] + 2] - p[t[0] + 2];
  const n = [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx], length = Math.hypot(n[0], n[1], n[2]) || 1;
  return n.map((x) => x / length);
}

/** Turns the column at `root` by STEP.turn about its root, its tip towards `n` (Rodrigues, about the axis tip x n). */
function turnColumn(lashes: Float32Array, roots: Uint32Array, root: number, n: number[]): void {
  const rx = lashes[3 * root], ry = lashes[3 * root + 1], rz = lashes[3 * root + 2];
  let tip = root;
  for (let v = 0; v < roots.length; v++) if (roots[v] === root) tip = v;
  const tx = lashes[3 * tip] - rx, ty = lashes[3 * tip + 1] - ry, tz = lashes[3 * tip + 2] - rz;
  let ax = ty * n[2] - tz * n[1], ay = tz * n[0] - tx * n[2], az = tx * n[1] - ty * n[0];
  const length = Math.hypot(ax, ay, az);
  if (length < 1e-12) return;
  ax /= length;
  ay /= length;
  az /= length;
  const c = Math.cos(STEP.turn), s = Math.sin(STEP.turn);
  for (let v = 0; v < roots.length; v++) {
    if (roots[v] !== root || v === root) continue;
    const px = lashes[3 * v] - rx, py = lashes[3 * v + 1] - ry, pz = lashes[3 * v + 2] - rz;
    const along = (ax * px + ay * py + az * pz) * (1 - c);
    lashes[3 * v] = rx + px * c + (ay * pz - az * py) * s + ax * along;
    lashes[3 * v + 1] = ry + py * c + (az * px - ax * pz) * s + ay * along;
    lashes[3 * v + 2] = rz + pz * c + (ax * py - ay * px) * s + az * along;
  }
}
