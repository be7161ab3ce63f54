import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { zipSync } from 'fflate';
import type { Avatar } from '../../../src/client/index.ts';
import { main } from '../../../src/cli/avatar.ts';
import { COMMANDS, listTable } from '../../../src/cli/avatar/commands.ts';
import { guessInputType } from '../../../src/cli/avatar/input-type.ts';

/** Runs the command line in this process with its own streams and environment (no config file, no AVATAR_*). */
async function run(args: string[], env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const code = await main(args, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: new PassThrough() as unknown as NodeJS.ReadStream,
    env: { XDG_CONFIG_HOME: '/nonexistent/avatar-cli-test', ...env },
  });
  return { code, stdout: out, stderr: err };
}

test('every command has its own help: usage, options with their defaults; "help COMMAND" is the same page', async () => {
  const general = await run(['--help']);
  assert.equal(general.code, 0);
  for (const name of Object.keys(COMMANDS)) {
    assert.match(general.stdout, new RegExp(`^  ${name}\\s+\\S`, 'm'), `${name} listed`);
    const own = await run([name, '--help']);
    assert.equal(own.code, 0, name);
    assert.match(own.stdout, new RegExp(`^Usage: avatar ${name}\\b`), name);
    for (const option of Object.keys(COMMANDS[name]!.options)) assert.match(own.stdout, new RegExp(`--${option}\\b`), `${name} --${option}`);
    assert.equal((await run(['help', name])).stdout, own.stdout);
  }
  const create = (await run(['new', '-h'])).stdout;
  assert.match(create, /--platforms LIST .*\(default: maya,webviewer\)/);
  assert.match(create, /--features LIST .*\(default: basic,expressions,visemes\)/);
  assert.match(create, /--template VERSION .*\(default: 2\.0\)/);
  assert.match((await run(['tts', '--help'])).stdout, /--voice NAME .*"avatar voices"/);
});

test('a misspelt option or command is named with the nearest right one, and the hint comes once', async () => {
  const option = await run(['new', 'me.jpg', '--platfrom', 'maya']);
  assert.equal(option.code, 1);
  assert.equal(option.stderr, 'avatar: unknown option --platfrom for "avatar new"; did you mean --platforms?\n  "avatar new --help" lists its arguments and options\n');
  const command = await run(['lsit']);
  assert.equal(command.code, 1);
  assert.match(command.stderr, /unknown command "lsit"; did you mean "list"\?/);
  assert.equal(command.stderr.match(/--help/g)?.length, 1, command.stderr);
  const missing = await run(['list', '--limit']);
  assert.match(missing.stderr, /option --limit needs a value/);
  const json = await run(['new', 'me.jpg', '--wiat', '--json']);
  assert.match(JSON.parse(json.stdout).error.text, /did you mean --wait\?/);
});

test('without configuration it says to run avatar init; a stopped service is named with where its address came from', async () => {
  const none = await run(['account']);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /run "avatar init"/);
  // Port 1 on loopback: nothing listens there, so the connection is refused at once.
  const stopped = await run(['account'], { AVATAR_HOST: 'http://127.0.0.1:1', AVATAR_KEY: 'ak_x', AVATAR_SECRET: 's' });
  assert.equal(stopped.code, 1);
  assert.match(stopped.stderr, /^avatar: cannot reach the service at http:\/\/127\.0\.0\.1:1 \(.+\); check that it is running and that the address is right$/m);
  assert.match(stopped.stderr, /the address http:\/\/127\.0\.0\.1:1 comes from AVATAR_HOST: start the service there, or save another address with "avatar init --host URL"/);
  assert.doesNotMatch(stopped.stderr, /HTTP 0/);
});

test('list prints a header and the same columns on every row, a failed or sample avatar included', () => {
  const a = (key: string, extra: Partial<Avatar>): Avatar => ({
    key, status: 'done', percent: 100, is_public: 0, is_sample: 0, error_code: 0, template_version: '2.0', optional_features: '', created_by: 'w',
    type: 'photo', created_at: '2026-11-25 10:00:00', updated_at: '2026-11-25 10:00:00', meta: [], ...extra,
  });
  const lines = listTable([
    a('a'.repeat(32), {}),
    a('b'.repeat(32), { status: 'error', error_code: 10001, percent: 20 }),
    a('c'.repeat(32), { is_sample: 1, type: 'hifimesh_texture_photo' }),
  ]).split('\n');
  assert.equal(lines.length, 4);
  assert.match(lines[0]!, /^KEY\s+STATUS\s+%\s+TYPE\s+TEMPLATE\s+CREATED \(UTC\)\s+NOTE$/);
  // Every cell starts where its header does.
  const columns = ['KEY', 'STATUS', '%', 'TYPE', 'TEMPLATE', 'CREATED (UTC)'].map((title) => lines[0]!.indexOf(title));
  for (const line of lines.slice(1)) for (const at of columns) assert.ok(line[at] !== ' ' && (at === 0 || line.slice(at - 2, at) === '  '), `${line} at ${at}`);
  const note = lines[0]!.indexOf('NOTE');
  assert.equal(lines[2]!.slice(note), 'error 10001');
  assert.equal(lines[3]!.slice(note), 'sample');
  assert.equal(lines[1]!.length, note - 2, 'an empty note leaves no trailing blanks');
});

test('the input type is told from the file: an image is a photo, a mesh zip by the files it holds', () => {
  const zip = (names: string[]) => zipSync(Object.fromEntries(names.map((n) => [n, new Uint8Array([1])])));
  assert.equal(guessInputType('me.png', new Uint8Array()), 'photo');
  assert.equal(guessInputType('ME.JPEG', new Uint8Array()), 'photo');
  assert.equal(guessInputType('head.zip', zip(['mesh.obj', 'mesh.jpg'])), 'lofimesh_texture');
  assert.equal(guessInputType('scan.zip', zip(['scan/mesh.obj', 'scan/Mesh.PNG', 'scan/photo.jpg'])), 'hifimesh_texture_photo');
  assert.equal(guessInputType('other.zip', zip(['readme.txt'])), undefined);
  assert.equal(guessInputType('broken.zip', new Uint8Array([1, 2, 3])), undefined);
  assert.equal(guessInputType('head.rar', new Uint8Array()), undefined);
});
