/** Reads a tfjs graph model (model.json + weight shards beside it) from disk into in-memory artifacts. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface GraphModelArtifacts {
  modelTopology: unknown;
  weightSpecs: unknown[];
  weightData: ArrayBuffer;
}

export async function readGraphModel(jsonFile: string): Promise<GraphModelArtifacts> {
  const dir = path.dirname(jsonFile);
  const json = JSON.parse(await readFile(jsonFile, 'utf8')) as {
    modelTopology: unknown;
    weightsManifest: { paths: string[]; weights: unknown[] }[];
  };
  const shards = await Promise.all(json.weightsManifest.flatMap((g) => g.paths).map((p) => readFile(path.join(dir, p))));
  const all = Buffer.concat(shards);
  return {
    modelTopology: json.modelTopology,
    weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
    weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
  };
}
