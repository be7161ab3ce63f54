import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRetryable, numberPlaceholders } from '../../../src/store/sql/pg-executor.ts';

describe('PostgreSQL placeholders', () => {
  it('numbers every ? in order', () => {
    assert.equal(numberPlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?) LIMIT ?'), 'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3) LIMIT $4');
  });
  it('leaves ? inside quoted text and identifiers alone', () => {
    assert.equal(numberPlaceholders(`SELECT '?' AS "a?b", ? FROM t WHERE c = 'x''?'`), `SELECT '?' AS "a?b", $1 FROM t WHERE c = 'x''?'`);
  });
  it('retries deadlocks and serialization failures only', () => {
    assert.equal(isRetryable({ code: '40P01' }), true);
    assert.equal(isRetryable({ code: '40001' }), true);
    assert.equal(isRetryable({ code: '23505' }), false);
    assert.equal(isRetryable(new Error('x')), false);
  });
});
