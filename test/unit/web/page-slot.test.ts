import assert from 'node:assert/strict';
import { test } from 'node:test';

/** The slot's view of an element: what it puts in `main` and what a page appends to its root. */
interface Box {
  name: string;
  children: Box[];
  append(...c: Box[]): void;
  replaceChildren(...c: Box[]): void;
}
type Page = (root: Box, ...args: string[]) => unknown;
type PageSlot = (main: Box, makeRoot: () => Box, onError: (e: unknown, root: Box) => void) => (page: Page, ...args: string[]) => Promise<void>;

// The portal's scripts are plain browser modules (no types): loaded by URL.
const { pageSlot } = (await import(new URL('../../../web/js/page-slot.js', import.meta.url).href)) as { pageSlot: PageSlot };

const box = (name: string): Box => ({
  name,
  children: [],
  append(...c) {
    this.children.push(...c);
  },
  replaceChildren(...c) {
    this.children = c;
  },
});

/** What `main` shows: the names of the sections in its root. */
const shown = (main: Box) => main.children.flatMap((root) => root.children.map((c) => c.name));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

test('a page that answers after the next one was opened draws out of sight, and what it started is stopped', async () => {
  const main = box('main');
  const errors: unknown[] = [];
  const open = pageSlot(main, () => box('root'), (e) => errors.push(e));
  const answer = deferred();
  let galleryStopped = 0, formStopped = 0;
  const gallery: Page = async (root) => {
    await answer.promise;
    root.append(box('gallery'));
    return () => galleryStopped++;
  };
  const form: Page = (root) => {
    root.append(box('form'));
    return () => formStopped++;
  };
  const slow = open(gallery);
  await open(form);
  answer.resolve();
  await slow;
  assert.deepEqual(shown(main), ['form'], 'only the page asked for last is in main');
  assert.equal(galleryStopped, 1, 'the late gallery was stopped when it returned');
  assert.equal(formStopped, 0, 'the form was not');
  assert.deepEqual(errors, []);
  await open((root) => root.append(box('keys')));
  assert.deepEqual(shown(main), ['keys']);
  assert.equal(formStopped, 1, 'opening the next page stops the current one');
});

test('a failure is reported in the current page only', async () => {
  const main = box('main');
  const errors: [unknown, Box][] = [];
  const open = pageSlot(main, () => box('root'), (e, root) => errors.push([e, root]));
  const answer = deferred();
  const late = open(async () => {
    await answer.promise;
    throw new Error('late');
  });
  await open(() => {
    throw new Error('now');
  });
  answer.resolve();
  await late;
  assert.deepEqual(errors.map(([e]) => (e as Error).message), ['now']);
  assert.equal(errors[0][1], main.children[0], 'reported in the root that is shown');
});
