import crypto from 'node:crypto';
import type { Figure } from './figure.ts';
import { nodeSigner, webCryptoSigner } from '../src/client/sign.ts';
import { decodeVertices, encodeVertices } from '../src/client/vertices.ts';

const URI = '/v2/avatar/0123456789abcdef0123456789abcdef/download/unity';

/** Median time of `fn` per call in microseconds, over batches after a warm-up. */
async function perCallUs(fn: () => unknown, calls: number): Promise<number> {
  const batch = async () => {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await fn();
    return ((performance.now() - t0) * 1000) / calls;
  };
  await batch();
  const times: number[] = [];
  for (let i = 0; i < 7; i++) times.push(await batch());
  return times.sort((a, b) => a - b)[3];
}

const round = (v: number, digits = 2) => Number(v.toFixed(digits));

/**
 * What the client adds to each request and to a deformation round trip. Baselines: one SHA-256 of
 * the signed path (a signature is three hashes and an HMAC), and a plain copy of the vertex buffer.
 */
export default async function (): Promise<Figure[]> {
  const node = nodeSigner({ key: 'ak_bench', secret: 'bench-secret' });
  const web = webCryptoSigner({ key: 'ak_bench', secret: 'bench-secret' });
  const hashUs = await perCallUs(() => crypto.createHash('sha256').update(URI).digest('hex'), 2000);
  const nodeUs = await perCallUs(() => node(URI), 2000);
  const webUs = await perCallUs(() => web(URI), 500);

  const positions = new Float32Array(3 * 100_000).map((_, i) => Math.sin(i) * 0.1);
  const copyUs = await perCallUs(() => new Uint8Array(positions.slice().buffer), 20);
  const roundTripUs = await perCallUs(() => decodeVertices(encodeVertices(positions, { unitsPerMeter: 1, mirrorX: true }), { unitsPerMeter: 1, mirrorX: true }), 20);

  return [
    { key: 'client.hash_sha256_uri', value: round(hashUs), unit: 'µs' },
    { key: 'client.sign_node', value: round(nodeUs), unit: 'µs', baseline: 'client.hash_sha256_uri' },
    { key: 'client.sign_webcrypto', value: round(webUs), unit: 'µs', baseline: 'client.hash_sha256_uri' },
    { key: 'client.copy_100k_vertices', value: round(copyUs / 1000, 3), unit: 'ms' },
    { key: 'client.vertex_convert_100k_both_ways', value: round(roundTripUs / 1000, 3), unit: 'ms', baseline: 'client.copy_100k_vertices' },
  ];
}
