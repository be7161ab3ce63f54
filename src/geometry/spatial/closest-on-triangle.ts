/**
 * Closest point on one triangle (Ericson, Real-Time Collision Detection 5.1.5). Triangles are stored
 * as their three corners in float32 (the precision the meshes come in), packed so that the queries
 * of a BVH leaf read few cache lines; all arithmetic is in double precision.
 */

/** Floats per stored triangle: corners a, b, c as xyz. */
export const TRIANGLE_STRIDE = 9;

/** Which feature of the triangle the closest point lies on; edges are named by their corners. */
export enum Region {
  Face = 0,
  VertexA = 1,
  VertexB = 2,
  VertexC = 3,
  EdgeAB = 4,
  EdgeBC = 5,
  EdgeCA = 6,
}

/**
 * Squared distance from p to the stored triangle at offset o. Writes the closest point's barycentric
 * weights of b and c into out[0], out[1] (the weight of a is 1 minus both) and its Region into out[2].
 */
export function closestOnTriangle(data: Float32Array, o: number, px: number, py: number, pz: number, out: Float64Array): number {
  const ax = data[o], ay = data[o + 1], az = data[o + 2];
  const abx = data[o + 3] - ax, aby = data[o + 4] - ay, abz = data[o + 5] - az;
  const acx = data[o + 6] - ax, acy = data[o + 7] - ay, acz = data[o + 8] - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  // d3..d6 are the same products taken from b and c: p - b = ap - ab, p - c = ap - ac.
  const abac = abx * acx + aby * acy + abz * acz;
  const d3 = d1 - (abx * abx + aby * aby + abz * abz), d4 = d2 - abac;
  const d5 = d1 - abac, d6 = d2 - (acx * acx + acy * acy + acz * acz);
  const vc = d1 * d4 - d3 * d2;
  const vb = d5 * d2 - d1 * d6;
  const va = d3 * d6 - d5 * d4;
  let v: number, w: number, region: Region;
  if (d1 <= 0 && d2 <= 0) {
    v = 0; w = 0; region = Region.VertexA;
  } else if (d3 >= 0 && d4 <= d3) {
    v = 1; w = 0; region = Region.VertexB;
  } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    v = d1 / (d1 - d3); w = 0; region = Region.EdgeAB;
  } else if (d6 >= 0 && d5 <= d6) {
    v = 0; w = 1; region = Region.VertexC;
  } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    v = 0; w = d2 / (d2 - d6); region = Region.EdgeCA;
  } else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    w = (d4 - d3) / (d4 - d3 + (d5 - d6)); v = 1 - w; region = Region.EdgeBC;
  } else {
    const sum = va + vb + vc;
    // Only a zero-area triangle can give sum 0 here; any of its points is then a fair answer.
    if (sum > 0) {
      v = vb / sum; w = vc / sum;
    } else {
      v = 0; w = 0;
    }
    region = Region.Face;
  }
  out[0] = v;
  out[1] = w;
  out[2] = region;
  const dx = apx - v * abx - w * acx, dy = apy - v * aby - w * acy, dz = apz - v * abz - w * acz;
  return dx * dx + dy * dy + dz * dz;
}
