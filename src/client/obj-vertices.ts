/**
 * Vertex positions of a Wavefront OBJ text, so that a mesh file can go through vertex deformation as is:
 * the `v` lines in file order are the vertex order the service keeps.
 */
const V_LINE = /^v\s+(\S+)\s+(\S+)\s+(\S+)(.*)$/;

export function objPositions(obj: string): Float32Array {
  const values: number[] = [];
  for (const line of obj.split('\n')) {
    const match = V_LINE.exec(line.trimEnd());
    if (match) values.push(Number(match[1]), Number(match[2]), Number(match[3]));
  }
  if (values.some((v) => !Number.isFinite(v))) throw new RangeError('an OBJ vertex has a coordinate that is not a number');
  return Float32Array.from(values);
}

/** The same OBJ text with its `v` positions replaced in order; everything else (and any vertex colour after x y z) is kept. */
export function replaceObjPositions(obj: string, positions: Float32Array): string {
  let i = 0;
  const out = obj.split('\n').map((line) => {
    const match = V_LINE.exec(line.trimEnd());
    if (!match) return line;
    if (i + 3 > positions.length) throw new RangeError(`the OBJ has more vertices than the ${positions.length / 3} given`);
    const xyz = [positions[i], positions[i + 1], positions[i + 2]].map((v) => String(Number(v.toPrecision(7))));
    i += 3;
    return `v ${xyz.join(' ')}${match[4]}`;
  });
  if (i !== positions.length) throw new RangeError(`the OBJ has ${i / 3} vertices, ${positions.length / 3} were given`);
  return out.join('\n');
}
