import type { MeshData } from '../../../src/model/avatar.ts';

/**
 * A UV sphere centred at the origin: u grows with longitude (towards +x seen from +z), v from the
 * bottom pole (0) to the top one (1); triangles counter-clockwise from outside.
 */
export function uvSphere(radius: number, segments: number, rings: number): MeshData {
  const count = (rings + 1) * (segments + 1);
  const positions = new Float32Array(count * 3);
  const normals = new Float32Array(count * 3);
  const uvs = new Float32Array(count * 2);
  for (let i = 0; i <= rings; i++) {
    const theta = (i / rings) * Math.PI;
    for (let j = 0; j <= segments; j++) {
      const phi = (j / segments) * 2 * Math.PI;
      const k = i * (segments + 1) + j;
      const n = [Math.sin(theta) * Math.sin(phi), Math.cos(theta), Math.sin(theta) * Math.cos(phi)];
      normals.set(n, k * 3);
      positions.set(n.map((c) => c * radius), k * 3);
      uvs.set([j / segments, 1 - i / rings], k * 2);
    }
  }
  const indices: number[] = [];
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < segments; j++) {
      const a = i * (segments + 1) + j, b = a + 1, c = a + segments + 1, d = c + 1;
      if (i > 0) indices.push(a, c, b);
      if (i < rings - 1) indices.push(b, c, d);
    }
  }
  return { positions, normals, uvs, indices: Uint32Array.from(indices) };
}

/** An axis-aligned square of side `size` at depth z facing +z, uv (0,0) at its bottom-left corner. */
export function quad(size: number, z: number, center: [number, number] = [0, 0]): MeshData {
  const h = size / 2;
  const [cx, cy] = center;
  return {
    positions: Float32Array.from([cx - h, cy - h, z, cx + h, cy - h, z, cx + h, cy + h, z, cx - h, cy + h, z]),
    normals: Float32Array.from([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]),
    uvs: Float32Array.from([0, 0, 1, 0, 1, 1, 0, 1]),
    indices: Uint32Array.from([0, 1, 2, 0, 2, 3]),
  };
}
