import { api, seg } from '../api.js';
import { h } from '../dom.js';

/** A progress bar that follows an avatar's status until it is done or failed; returns the element and a stop function. */
export function watchProgress(key, onEnd) {
  const bar = h('progress', { max: 100, value: 0 });
  const label = h('span', { class: 'status-text' }, 'pending');
  const el = h('div', { class: 'progress', 'data-key': key }, bar, label);
  let timer;
  const poll = async () => {
    try {
      const a = await api.get(`/avatars/${seg(key)}`);
      bar.value = a.percent;
      label.textContent = a.status === 'error' ? `error ${a.error_code}` : `${a.status} ${a.percent} %`;
      el.dataset.status = a.status;
      if (a.status === 'done' || a.status === 'error') return onEnd(a);
    } catch (e) {
      label.textContent = e.message;
    }
    timer = setTimeout(poll, 1000);
  };
  void poll();
  return { el, stop: () => clearTimeout(timer) };
}
