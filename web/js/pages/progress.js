import { api, seg } from '../api.js';
import { failureOf, h, show } from '../dom.js';
import { pollWithBackoff } from '../poll.js';

/**
 * A progress bar that follows an avatar's (or result's) status, backing off while nothing moves, until it is
 * done or failed; then it shows the outcome (a failure with its reason) and calls `onEnd(status)` once.
 * Returns the element and a stop function.
 */
export function watchProgress(key, onEnd) {
  const bar = h('progress', { max: 100, value: 0 });
  const label = h('span', { class: 'status-text' }, 'waiting for the service…');
  const outcome = h('div', { class: 'outcome' });
  const el = h('div', { class: 'progress', 'data-key': key }, h('div', {}, bar, label), outcome);
  let last = '';
  const stop = pollWithBackoff(async () => {
    let a;
    try {
      a = await api.get(`/avatars/${seg(key)}`);
    } catch (e) {
      label.textContent = `${e.text ?? e.message} (trying again)`;
      throw e;
    }
    bar.value = a.percent;
    el.dataset.status = a.status;
    label.textContent = a.status === 'error' ? 'failed' : `${a.status} ${a.percent} %`;
    if (a.status === 'error') show(outcome, h('p', { class: 'error', role: 'alert' }, failureOf(a)));
    if (a.status === 'done' || a.status === 'error') {
      onEnd(a);
      return 'finished';
    }
    const now = `${a.status} ${a.percent}`;
    const moved = now !== last;
    last = now;
    return moved ? 'changed' : 'same';
  });
  return { el, stop };
}
