import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scanCode, scanMarkdown, scanText, type Finding } from '../../helpers/outside-reads.ts';

/**
 * A repository checked out at /checkouts/wt/repo, beside a shared folder /checkouts/shared that code must not
 * reach (made-up places, so that this file names nothing that exists on a real machine).
 */
const ROOT = '/checkouts/wt/repo';
const existing = new Set(['/checkouts', '/checkouts/shared', '/checkouts/shared/spec/interface.md', '/checkouts/shared/testdata/faces', '/etc/passwd']);
const exists = (p: string) => existing.has(p.replace(/\/$/, ''));

const IMPORTS = `import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { readFileSync } from 'fs';
import path, { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn, spawnSync } from 'node:child_process';
`;

const scan = (file: string, code: string, root = ROOT) => scanCode(IMPORTS + code, file, root, { exists });
const forms = (found: Finding[]) => found.map((f) => `${f.form} ${f.resolved}`);

describe('the outside-reads scanner', () => {
  it('catches imports, dynamic imports and requires of files outside the repository', () => {
    assert.deepEqual(forms(scan('test/unit/a/b.test.ts', `import { x } from '../../../../shared/helpers.ts';`)), ['import /checkouts/wt/shared/helpers.ts']);
    assert.deepEqual(forms(scan('src/a.ts', `const m = await import('../../other/mod.ts');`)), ['import /checkouts/wt/other/mod.ts']);
    assert.deepEqual(forms(scan('src/a.ts', `export { y } from '/checkouts/shared/lib.ts';`)), ['import /checkouts/shared/lib.ts']);
    assert.deepEqual(forms(scan('src/a.ts', `const r = require('../../x.cjs');`)), ['import /checkouts/wt/x.cjs']);
    assert.deepEqual(scan('test/unit/a/b.test.ts', `import { y } from '../../../src/y.ts'; import sharp from 'sharp';`), []);
  });

  it('catches file URLs built from import.meta.url that climb above the root, also through a const', () => {
    assert.deepEqual(forms(scan('bench/load.ts', `const photo = fs.readFileSync(new URL('../../shared/testdata/faces/p03-a.jpg', import.meta.url));`)), [
      'fs /checkouts/wt/shared/testdata/faces/p03-a.jpg',
      'file-url /checkouts/wt/shared/testdata/faces/p03-a.jpg',
    ]);
    const viaConst = scan('test/unit/geometry/eyes.test.ts', `const faces = new URL('../../../../shared/faces/', import.meta.url);\nconst p = readFileSync(new URL('p01-a.jpg', faces));`);
    assert.ok(viaConst.some((f) => f.form === 'fs' && f.resolved === '/checkouts/wt/shared/faces/p01-a.jpg' && f.line === IMPORTS.split('\n').length + 1), JSON.stringify(viaConst));
    assert.deepEqual(forms(scan('src/a.ts', `const u = new URL('file:///checkouts/shared/spec/interface.md');`)), ['file-url /checkouts/shared/spec/interface.md', 'absolute /checkouts/shared/spec/interface.md']);
    assert.deepEqual(scan('bench/load.ts', `const photo = fs.readFileSync(new URL('../test/fixtures/faces/p03-a.jpg', import.meta.url));`), []);
    assert.deepEqual(scan('tools/harness/process.ts', `const root = path.resolve(new URL('../..', import.meta.url).pathname);`), [], 'the root itself is inside');
  });

  it('catches paths built from the module location or the working directory', () => {
    assert.deepEqual(forms(scan('scripts/x.ts', `const d = path.join(import.meta.dirname, '..', '..', 'shared');`)), ['path /checkouts/wt/shared']);
    assert.deepEqual(forms(scan('scripts/x.ts', `const d = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared');`)), ['path /checkouts/wt/shared']);
    assert.deepEqual(forms(scan('test/x.ts', `const d = path.resolve(__dirname, '../../shared');`)), ['path /checkouts/wt/shared']);
    assert.deepEqual(forms(scan('test/x.ts', `const d = path.resolve(process.cwd(), '../shared/testdata');`)), ['path /checkouts/wt/shared/testdata']);
    assert.deepEqual(scan('test/fixtures/faces.ts', `export const FACES_DIR = path.join(import.meta.dirname, 'faces');`), []);
    assert.deepEqual(scan('src/a.ts', `const d = path.join(os.tmpdir(), 'avatar-'); const e = path.join(dir, '..', 'x');`), [], 'unknown bases are not guessed');
  });

  it('catches fs reads of relative paths above the root (npm runs scripts from it) and of absolute paths outside it', () => {
    assert.deepEqual(forms(scan('test/unit/a.test.ts', `readFileSync('../shared/testdata/faces/p01-a.jpg');`)), ['fs /checkouts/wt/shared/testdata/faces/p01-a.jpg']);
    const env = scan('bench/x.ts', `const DIR = process.env.FACES ?? '../shared/testdata/faces';\nconst files = fs.readdirSync(DIR);\nconst one = fs.readFileSync(\`\${DIR}/p01-a.jpg\`);`);
    assert.deepEqual(forms(env), ['fs /checkouts/wt/shared/testdata/faces', 'fs /checkouts/wt/shared/testdata/faces/p01-a.jpg']);
    assert.deepEqual(forms(scan('bench/x.ts', `await fsp.readdir('/srv/photos/' + name);`)), ['fs /srv/photos']);
    assert.deepEqual(forms(scan('bench/x.ts', `await fs.promises.readFile('/mnt/data/x.bin');`)), ['fs /mnt/data/x.bin']);
    assert.deepEqual(scan('bench/x.ts', `fs.readFileSync('/proc/stat', 'utf8'); fs.readFileSync(\`/proc/\${pid}/stat\`); fs.readFileSync(file, 'utf8'); fs.mkdtempSync(path.join(os.tmpdir(), 'x-'));`), []);
  });

  it('counts a climb out of a clone in a temporary folder, though /tmp itself is a system folder', () => {
    assert.deepEqual(forms(scan('test/a.test.ts', `readFileSync('../shared/faces/p01-a.jpg');`, '/tmp/abc/repo')), ['fs /tmp/abc/shared/faces/p01-a.jpg']);
    assert.deepEqual(scan('test/a.test.ts', `readFileSync('/tmp/abc/other');`, '/tmp/abc/repo'), [], 'an absolute /tmp path is the system temporary folder');
  });

  it('catches child processes given programs, arguments or a cwd outside', () => {
    assert.deepEqual(forms(scan('test/system/x.test.ts', `spawn('blender', ['-b', '--python', '../shared/render.py']);`)), ['child-process /checkouts/wt/shared/render.py']);
    assert.deepEqual(forms(scan('test/system/x.test.ts', `spawnSync('node', ['main.ts'], { cwd: '/checkouts/shared' });`)), ['child-process /checkouts/shared', 'absolute /checkouts/shared']);
    assert.deepEqual(scan('test/system/x.test.ts', `spawn('/usr/bin/chromium', ['--headless']); spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts']);`), []);
  });

  it('catches any absolute literal naming an existing place outside the repository and the system', () => {
    assert.deepEqual(forms(scan('src/a.ts', `const spec = '/checkouts/shared/spec/interface.md'; show(spec);`)), ['absolute /checkouts/shared/spec/interface.md']);
    assert.deepEqual(forms(scan('src/a.ts', `const dir = \`/checkouts/shared/testdata/faces/\${name}\`;`)), ['absolute /checkouts/shared/testdata/faces']);
    assert.deepEqual(scan('test/a.test.ts', `configPath({ HOME: '/home/u' }); entry('/etc/passwd'); get('/v2/avatar/list');`), [], 'data that names nothing outside');
  });

  it('reads absolute import specifiers of the web portal as URL paths', () => {
    assert.deepEqual(scanCode(`import { api } from '/web/js/api.js';`, 'web/js/app.js', ROOT, { exists }), []);
    assert.deepEqual(forms(scanCode(`import { api } from '../../../shared/api.js';`, 'web/js/app.js', ROOT, { exists })), ['import /checkouts/wt/shared/api.js']);
  });

  it('catches docs that send readers outside: links, ../ paths read from the root, absolute places', () => {
    const readme = 'It implements the interface in `../shared/spec/interface.md`; see [API](docs/API.md).';
    assert.deepEqual(forms(scanMarkdown(readme, 'README.md', ROOT, { exists })), ['doc-path /checkouts/wt/shared/spec/interface.md']);
    assert.deepEqual(forms(scanMarkdown('the [spec](../../shared/spec/interface.md)', 'docs/API.md', ROOT, { exists })), ['doc-link /checkouts/wt/shared/spec/interface.md']);
    assert.deepEqual(forms(scanMarkdown('notes in /checkouts/shared/testdata/faces', 'docs/X.md', ROOT, { exists })), ['absolute /checkouts/shared/testdata/faces']);
    const fine = 'Validated by [`schemas/a.json`](../schemas/a.json); range = the `<mark .../>` tag; GET /v2/avatar/list; http://localhost:8080/files/x';
    assert.deepEqual(scanMarkdown(fine, 'docs/FORMATS.md', ROOT, { exists }), []);
  });

  it('catches absolute places in other text files (HTML, JSON, notices)', () => {
    assert.deepEqual(forms(scanText('<script src="/web/js/app.js"></script>\n"source": "/checkouts/shared/testdata/faces"', 'web/index.html', ROOT, { exists })), ['absolute /checkouts/shared/testdata/faces']);
  });
});
