import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, it } from 'node:test';
import { listCodes } from '../../../src/domain/list-codes.ts';

describe('list codes', () => {
  it('round-trips list codes and refuses any change', () => {
    const codes = listCodes(crypto.randomBytes(32));
    const c = codes.cursor({ account: 'acc', dir: 'after', at: { sample: true, seq: 42 } });
    assert.deepEqual(codes.readCursor(c), { account: 'acc', dir: 'after', at: { sample: true, seq: 42 } });
    assert.equal(codes.readUpdate(c), undefined, 'a cursor is not an update code');
    assert.equal(codes.readCursor(c.replace(/^./, (x) => (x === 'A' ? 'B' : 'A'))), undefined);
    assert.equal(listCodes(crypto.randomBytes(32)).readCursor(c), undefined, 'another key');
    const u = codes.update({ account: 'acc', since: 7 });
    assert.deepEqual(codes.readUpdate(u), { account: 'acc', since: 7 });
  });
});
