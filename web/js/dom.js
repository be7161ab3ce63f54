/**
 * Builds DOM nodes: h('p', { class: 'x', onclick: fn }, 'text', child). Text is always set as text,
 * never parsed as HTML, so names and meta values from the service cannot inject markup.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (name in el && typeof value !== 'string') el[name] = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const c of children.flat()) if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** Replaces the contents of `el`. */
export function show(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  return el;
}

export const capital = (s) => (s ? `${s[0].toUpperCase()}${s.slice(1)}` : '');
const sentence = (s) => (s ? `${capital(s)}${/[.!?)]$/.test(s) ? '' : '.'}` : '');

/**
 * The service's texts say what happened, then after a semicolon what to do: shown as two lines, the code
 * beside the first (it is what the documentation and support know it by).
 */
export function reasonOf(code, text) {
  const cut = text.indexOf('; ');
  const what = cut < 0 ? text : text.slice(0, cut);
  const todo = cut < 0 ? '' : text.slice(cut + 2);
  return h('span', { class: 'reason' },
    h('strong', { class: 'what' }, sentence(what)), code ? h('span', { class: 'code' }, ` (error ${code})`) : '',
    todo ? h('span', { class: 'todo' }, sentence(todo)) : '');
}

/** The reason of a failed avatar or result, from its status's `msg`. */
export function failureOf(a) {
  const match = /^(\d{5}) (.*)$/s.exec(a.msg ?? '');
  return reasonOf(a.error_code, match ? match[2] : 'it could not be made');
}

/** A line that reports an error of the service (its code, what happened and what to do) or of the browser. */
export function errorLine(e, id) {
  const body = e instanceof Error && 'text' in e ? reasonOf(e.code, e.text) : h('span', {}, e instanceof Error ? e.message : String(e));
  return h('p', { class: 'error', role: 'alert', id, 'data-code': e?.code }, body);
}
