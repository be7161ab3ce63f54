import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Avatar } from '../../../src/client/index.ts';
import { progressBar } from '../../../src/client/node/progress.ts';

const stream = (isTTY: boolean) => {
  const written: string[] = [];
  return { written, s: { isTTY, write: (t: string) => written.push(t) } as unknown as NodeJS.WriteStream };
};
const at = (status: Avatar['status'], percent: number) => ({ key: 'k', status, percent }) as Avatar;

test('off a terminal: one line per change', () => {
  const { written, s } = stream(false);
  const bar = progressBar(s, 'k');
  [at('pending', 0), at('pending', 0), at('processing', 40), at('done', 100)].forEach((a) => bar.update(a));
  bar.end();
  assert.deepEqual(written, ['k pending 0%\n', 'k processing 40%\n', 'k done 100%\n']);
});

test('on a terminal: redrawn in place, a bar as wide as the percent, a newline at the end', () => {
  const { written, s } = stream(true);
  const bar = progressBar(s, 'k');
  bar.update(at('processing', 50));
  bar.end();
  assert.match(written[0], /^\rk \[#{15}\.{15}\]  50% processing/);
  assert.equal(written.at(-1), '\n');
});
