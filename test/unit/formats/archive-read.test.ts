import { test } from 'node:test';
import assert from 'node:assert/strict';
import { zipSync } from 'fflate';
import { readArchive, type ArchiveLimits } from '../../../src/formats/read/archive-read.ts';
import { InputError } from '../../../src/formats/read/input-error.ts';
import { buildRar4, buildRar5 } from '../../fixtures/rar-builder.ts';
import { buildZip } from '../../fixtures/zip-builder.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);

async function refused(data: Uint8Array, code: number, limits?: ArchiveLimits): Promise<string> {
  try {
    await readArchive(data, limits);
  } catch (err) {
    assert.ok(err instanceof InputError, `expected an InputError, got ${err}`);
    assert.equal(err.code, code, err.message);
    return err.message;
  }
  assert.fail(`expected refusal ${code}`);
}

test('reads a zip: case-insensitive names inside one top-level folder, macOS metadata left out', async () => {
  const zip = zipSync({
    'Head/Mesh.OBJ': bytes('v 1 2 3\n'),
    'Head/mesh.JPG': [bytes('jpeg bytes'), { level: 0 }],
    'Head/textures/Extra.png': bytes('png'),
    'Head/': new Uint8Array(0),
    '__MACOSX/Head/._Mesh.OBJ': bytes('resource fork'),
    'Head/.DS_Store': bytes('finder'),
  });
  const files = await readArchive(zip);
  assert.deepEqual([...files.keys()].sort(), ['mesh.jpg', 'mesh.obj', 'textures/extra.png']);
  assert.equal(text(files.get('mesh.obj')), 'v 1 2 3\n');
  assert.equal(text(files.get('mesh.jpg')), 'jpeg bytes');
});

test('files in different top-level folders keep their folders', async () => {
  const files = await readArchive(zipSync({ 'a/mesh.obj': bytes('x'), 'b/mesh.jpg': bytes('y') }));
  assert.deepEqual([...files.keys()].sort(), ['a/mesh.obj', 'b/mesh.jpg']);
  const flat = await readArchive(zipSync({ 'mesh.obj': bytes('x'), 'sub/mesh.jpg': bytes('y') }));
  assert.deepEqual([...flat.keys()].sort(), ['mesh.obj', 'sub/mesh.jpg']);
});

test('stored, deflated and data-descriptor entries written by hand read back', async () => {
  const data = bytes('f 1 2 3\n'.repeat(1000));
  const files = await readArchive(
    buildZip([{ name: 'a.obj', data }, { name: 'b.obj', data, method: 0 }, { name: 'c.obj', data, dataDescriptor: true }]),
  );
  assert.deepEqual(files.get('a.obj'), data);
  assert.deepEqual(files.get('b.obj'), data);
  assert.deepEqual(files.get('c.obj'), data, 'sizes in a data descriptor, as streaming zippers write them');
});

test('a zip bomb is refused from its declared sizes before anything is inflated', async () => {
  const limits = { maxEntries: 10, maxTotalBytes: 1_000_000 };
  const zeros = new Uint8Array(2_000_000);
  const msg = await refused(buildZip([{ name: 'mesh.obj', data: zeros }]), 30005, limits);
  assert.match(msg, /over the limit/);
  // Many small entries that add up (the same trick as entries overlapping one compressed block).
  const many = buildZip(Array.from({ length: 5 }, (_, i) => ({ name: `part${i}.obj`, data: new Uint8Array(300_000) })));
  await refused(many, 30005, limits);
});

test('an entry that inflates beyond its declared size is stopped and refused', async () => {
  const bomb = buildZip([{ name: 'mesh.obj', data: new Uint8Array(50_000_000), declaredSize: 1000 }]);
  const t0 = performance.now();
  const msg = await refused(bomb, 30005);
  assert.match(msg, /beyond its declared size/);
  // Stopped after a kilobyte, not after inflating 50 MB (which takes far longer than this bound).
  assert.ok(performance.now() - t0 < 5000);
});

test('too many entries are refused', async () => {
  const zip = buildZip(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, data: bytes('x') })));
  await refused(zip, 30005, { maxEntries: 10, maxTotalBytes: 1_000_000 });
});

test('zip-slip and other odd names are refused with 40101', async () => {
  const names = [
    '../mesh.obj',
    'head/../../mesh.obj',
    '..\\mesh.obj',
    'head\\..\\..\\mesh.obj',
    '/etc/mesh.obj',
    '\\mesh.obj',
    'C:/mesh.obj',
    'c:mesh.obj',
    'head//mesh.obj',
    './mesh.obj',
    'mesh\u0000.obj',
    'mesh\n.obj',
    `${'a'.repeat(300)}.obj`,
  ];
  for (const name of names) await refused(buildZip([{ name, data: bytes('v 0 0 0') }]), 40101);
  // Names that are not UTF-8 cannot be checked: refused too.
  await refused(buildZip([{ name: Uint8Array.from([0x6d, 0xff, 0xfe, 0x2e, 0x6f]), data: bytes('x') }]), 40101);
});

test('symbolic links are refused with 40101, even pointing inside', async () => {
  await refused(buildZip([{ name: 'mesh.obj', data: bytes('/etc/passwd'), unixMode: 0o120777, method: 0 }]), 40101);
  await refused(buildZip([{ name: 'mesh.jpg', data: bytes('x') }, { name: 'mesh.obj', data: bytes('mesh.jpg'), unixMode: 0o120777 }]), 40101);
});

test('names that clash when case is ignored are refused', async () => {
  await refused(buildZip([{ name: 'Mesh.obj', data: bytes('a') }, { name: 'mesh.OBJ', data: bytes('b') }]), 40101);
});

test('empty archives are refused with 30005', async () => {
  await refused(new Uint8Array(0), 30005);
  await refused(zipSync({}), 30005);
  await refused(buildZip([]), 30005);
  await refused(buildZip([{ name: 'head/', data: new Uint8Array(0) }, { name: '__MACOSX/x', data: bytes('x') }]), 30005);
});

test('files that are not zip or RAR are refused with 30006', async () => {
  await refused(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 30006);
  await refused(bytes('v 0 0 0\nf 1 1 1\n'), 30006);
  await refused(Uint8Array.from([0x1f, 0x8b, 8, 0]), 30006);
});

test('corrupt, encrypted and unsupported zips are refused with 30005', async () => {
  const good = buildZip([{ name: 'mesh.obj', data: bytes('v 0 0 0\n'.repeat(100)) }]);
  await refused(good.subarray(0, good.length - 30), 30005); // truncated: no end record
  await refused(buildZip([{ name: 'mesh.obj', data: bytes('v 0 0 0'), crc: 12345 }]), 30005);
  await refused(buildZip([{ name: 'mesh.obj', data: bytes('v 0 0 0'), flags: 1 }]), 30005);
  await refused(buildZip([{ name: 'mesh.obj', data: bytes('v 0 0 0'), method: 12 }]), 30005);
  const words = Array.from({ length: 2000 }, (_, i) => `v ${i % 97} ${(i * 31) % 89} ${(i * 7) % 13}`).join('\n');
  const garbled = buildZip([{ name: 'mesh.obj', data: bytes(words) }]);
  garbled.fill(0x55, 200, 220); // inside the deflate stream
  assert.match(await refused(garbled, 30005), /inflate|checksum/);
  await refused(buildZip([{ name: 'mesh.obj', data: bytes('v 0 0 0'), declaredSize: 100 }]), 30005);
});

test('reads a RAR 5 archive with the same naming rules', async () => {
  const rar = buildRar5([
    { name: 'Scan', directory: true },
    { name: 'Scan/MESH.obj', data: bytes('v 0 0 0\n') },
    { name: 'Scan/mesh.jpg', data: bytes('jpeg') },
  ]);
  const files = await readArchive(rar);
  assert.deepEqual([...files.keys()].sort(), ['mesh.jpg', 'mesh.obj']);
  assert.equal(text(files.get('mesh.obj')), 'v 0 0 0\n');
});

test('RAR refusals: links, zip-slip names, lying sizes, garbage, bombs by declared size', async () => {
  assert.match(await refused(buildRar5([{ name: 'mesh.obj', symlinkTo: '/etc/passwd' }]), 40101), /links/);
  await refused(buildRar5([{ name: '../mesh.obj', data: bytes('x') }]), 40101);
  await refused(buildRar5([{ name: 'mesh.obj', data: bytes('x'.repeat(1000)), declaredSize: 10 }]), 30005);
  await refused(bytes('Rar!\u001a\u0007\u0001\u0000garbage'), 30005);
  await refused(buildRar5([]), 30005);
  await refused(buildRar5([{ name: 'mesh.obj', data: new Uint8Array(2000) }]), 30005, { maxEntries: 10, maxTotalBytes: 1000 });
});

test('reads a RAR 4 archive and refuses its symlinks', async () => {
  const files = await readArchive(buildRar4([{ name: 'Mesh.OBJ', data: bytes('v 0 0 0\n') }, { name: 'mesh.jpg', data: bytes('jpeg') }]));
  assert.deepEqual([...files.keys()].sort(), ['mesh.jpg', 'mesh.obj']);
  assert.equal(text(files.get('mesh.obj')), 'v 0 0 0\n');
  assert.match(await refused(buildRar4([{ name: 'mesh.obj', data: bytes('/etc/passwd'), unixMode: 0o120777 }]), 40101), /links/);
});
