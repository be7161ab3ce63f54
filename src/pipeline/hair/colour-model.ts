/**
 * A Gaussian colour model of a region (skin, hair, clothes), in a space where shading mostly moves the
 * first coordinate: log brightness, then red-green and yellow-blue chroma relative to brightness.
 */
export type ColourFeature = [number, number, number];

/** Writes the feature of an sRGB colour at `offset` in `out`. */
export function colourFeatureInto(out: Float32Array, offset: number, r: number, g: number, b: number): void {
  const l = (r + g + b) / 3 + 8;
  out[offset] = Math.log(l);
  out[offset + 1] = (r - g) / l;
  out[offset + 2] = (r + g - 2 * b) / (2 * l);
}

export interface ColourModel {
  mean: ColourFeature;
  /** Inverse covariance, row-major 3x3. */
  inverse: number[];
  /** log of the covariance's determinant (for comparing likelihoods between models). */
  logDet: number;
  /** Samples the model was fitted on. */
  count: number;
}

/**
 * Smallest variance per coordinate, so a flat patch (or a few samples) still gives a usable model; the
 * brightness gets the most room, as shading changes it across one material.
 */
const MIN_VARIANCE = [0.02, 0.0008, 0.0008];

function fitOnce(samples: ColourFeature[]): ColourModel {
  const n = samples.length;
  const mean: ColourFeature = [0, 0, 0];
  for (const f of samples) for (let k = 0; k < 3; k++) mean[k] += f[k] / n;
  const c = new Array<number>(9).fill(0);
  for (const f of samples) {
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) c[i * 3 + j] += ((f[i] - mean[i]) * (f[j] - mean[j])) / n;
  }
  for (let k = 0; k < 3; k++) c[k * 4] += MIN_VARIANCE[k];
  const det =
    c[0] * (c[4] * c[8] - c[5] * c[7]) - c[1] * (c[3] * c[8] - c[5] * c[6]) + c[2] * (c[3] * c[7] - c[4] * c[6]);
  const inverse = [
    c[4] * c[8] - c[5] * c[7], c[2] * c[7] - c[1] * c[8], c[1] * c[5] - c[2] * c[4],
    c[5] * c[6] - c[3] * c[8], c[0] * c[8] - c[2] * c[6], c[2] * c[3] - c[0] * c[5],
    c[3] * c[7] - c[4] * c[6], c[1] * c[6] - c[0] * c[7], c[0] * c[4] - c[1] * c[3],
  ].map((v) => v / det);
  return { mean, inverse, logDet: Math.log(det), count: n };
}

/** Squared Mahalanobis distance within which a colour belongs to a model (chi-square, 3 dof, 99.9 %). */
export const GATE = 16.3;

/** Squared Mahalanobis distance of a feature (at `offset` in `f`, e.g. a grid's packed features) from the model. */
export function distance2(m: ColourModel, f: ArrayLike<number>, offset = 0): number {
  const d0 = f[offset] - m.mean[0];
  const d1 = f[offset + 1] - m.mean[1];
  const d2 = f[offset + 2] - m.mean[2];
  const q = m.inverse;
  return d0 * (q[0] * d0 + q[1] * d1 + q[2] * d2) + d1 * (q[3] * d0 + q[4] * d1 + q[5] * d2) + d2 * (q[6] * d0 + q[7] * d1 + q[8] * d2);
}

/** Negative log-likelihood (up to a constant shared by all models): lower is more likely. */
export function cost(m: ColourModel, f: ArrayLike<number>, offset = 0): number {
  return distance2(m, f, offset) + m.logDet;
}

/**
 * Fits a model robustly: after a first fit, the samples farthest from it (highlights, shadows, stray
 * pixels of another region) are dropped and the model refitted on the rest.
 */
export function fitColourModel(samples: ColourFeature[], keep = 0.8): ColourModel | undefined {
  if (samples.length < 8) return undefined;
  let model = fitOnce(samples);
  const d = new Float64Array(samples.length);
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < samples.length; i++) d[i] = distance2(model, samples[i]);
    const limit = Float64Array.from(d).sort()[Math.max(7, Math.floor(samples.length * keep) - 1)];
    model = fitOnce(samples.filter((_, i) => d[i] <= limit));
  }
  return model;
}

/**
 * Models of a region with several colours (patterned clothes, a background): one per colour cluster
 * (colourClusters). Clusters too small for a model are dropped.
 */
export function fitColourMixture(samples: ColourFeature[], k: number): ColourModel[] {
  return colourClusters(samples, k)
    .map((members) => fitColourModel(members.map((i) => samples[i])))
    .filter((m): m is ColourModel => m !== undefined);
}

// Loops and module functions, not callbacks made per call: the callbacks TurboFan compiled died with each call and
// were compiled again every job (some fifteen of them).
/**
 * The samples split into `k` colour clusters (k-means on the features, each coordinate scaled by its
 * spread), as lists of sample indices, largest first; fewer than 8 samples a cluster give one cluster of all.
 */
export function colourClusters(samples: ColourFeature[], k: number): number[][] {
  const n = samples.length;
  if (n < 8 * k) return [Array.from({ length: n }, indexOf)];
  const spread = [spreadOf(samples, 0), spreadOf(samples, 1), spreadOf(samples, 2)];
  const scaled: number[][] = [];
  for (const f of samples) scaled.push([f[0] / spread[0], f[1] / spread[1], f[2] / spread[2]]);
  // Start from the darkest and the brightest samples (the first and the last of a stable sort by brightness),
  // then the farthest from the centres so far.
  let darkest = 0;
  let brightest = 0;
  for (let i = 1; i < n; i++) {
    if (scaled[i][0] < scaled[darkest][0]) darkest = i;
    if (scaled[i][0] >= scaled[brightest][0]) brightest = i;
  }
  const centres = [scaled[darkest], scaled[brightest]].slice(0, k);
  while (centres.length < k) {
    let a = scaled[0];
    for (let i = 1; i < n; i++) {
      const f = scaled[i];
      if (d2(f, centres[nearest(centres, f)]) > d2(a, centres[nearest(centres, a)])) a = f;
    }
    centres.push(a);
  }
  const label = new Array<number>(n);
  for (let iteration = 0; iteration <= 8; iteration++) {
    if (iteration > 0) for (let j = 0; j < k; j++) recentre(scaled, label, centres, j);
    for (let i = 0; i < n; i++) label[i] = nearest(centres, scaled[i]);
  }
  const groups: number[][] = [];
  for (let j = 0; j < k; j++) groups.push([]);
  for (let i = 0; i < n; i++) groups[label[i]].push(i);
  const found: number[][] = [];
  for (const g of groups) if (g.length > 0) found.push(g);
  return found.sort(longerFirst);
}

function indexOf(_: unknown, i: number): number {
  return i;
}

function longerFirst(a: number[], b: number[]): number {
  return b.length - a.length;
}

/** The spread of coordinate d over the samples (1 when none). */
function spreadOf(samples: ColourFeature[], d: number): number {
  let sum = 0;
  for (const f of samples) sum += f[d];
  const mean = sum / samples.length;
  let square = 0;
  for (const f of samples) square += (f[d] - mean) ** 2;
  return Math.sqrt(square / samples.length) || 1;
}

function d2(a: number[], b: number[]): number {
  return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;
}

/** The centre nearest to f (the first of equals). */
function nearest(centres: number[][], f: number[]): number {
  let best = 0;
  for (let j = 0; j < centres.length; j++) if (d2(f, centres[j]) < d2(f, centres[best])) best = j;
  return best;
}

/** Centre j moved to the mean of its members, if it has any. */
function recentre(scaled: number[][], label: number[], centres: number[][], j: number): void {
  let count = 0;
  const sum = [0, 0, 0];
  for (let d = 0; d < 3; d++) {
    count = 0;
    for (let i = 0; i < scaled.length; i++) {
      if (label[i] !== j) continue;
      sum[d] += scaled[i][d];
      count++;
    }
  }
  if (count) centres[j] = [sum[0] / count, sum[1] / count, sum[2] / count];
}
