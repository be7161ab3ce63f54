import { api, seg } from '../api.js';
import { failureOf, h, show } from '../dom.js';
import { pollWithBackoff } from '../poll.js';

/**
 * A progress bar that follows an avatar's (or result's) status, backing off while nothing moves, until it is
 * done or failed; then it shows the outcome (a failure with its reason) and calls `onEnd(status)` once.
 * `known`, a status the caller has just read, is shown at once and the first request waits its pause.
 * Returns the element and a stop function.
 */
export function watchProgress(key, onEnd, known) {
  const bar = h('progress', { max: 100, value: 0 });
  const label = h('span', { class: 'status-text' }, 'waiting for the service…');
  const outcome = h('div', { class: 'outcome' });
  const el = h('div', { class: 'progress', 'data-key': key }, h('div', {}, bar, label), outcome);
  let last = '';
  const render = (a) => {
    bar.value = a.percent;
    el.dataset.status = a.status;
    label.textContent = a.status === 'error' ? 'failed' : `${a.status} ${a.percent} %`;
    if (a.status === 'error') show(outcome, h('p', { class: 'error', role: 'alert' }, failureOf(a)));
    const now = `${a.status} ${a.percent}`;
    const moved = now !== last;
    last = now;
    return moved;
  };
  if (known) render(known);
  const stop = pollWithBackoff(async () => {
    let a;
    try {
      a = await api.get(`/avatars/${seg(key)}`);
    } catch (e) {
      label.textContent = `${e.text ?? e.message} (trying again)`;
      throw e;
    }
    const moved = render(a);
    if (a.status === 'done' || a.status === 'error') {
      onEnd(a);
      return 'finished';
    }
    return moved ? 'changed' : 'same';
  }, { now: !known });
  return { el, stop };
}
