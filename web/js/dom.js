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

/** A line that reports an error of the service (its code and text) or of the browser. */
export function errorLine(e) {
  return h('p', { class: 'error', role: 'alert' }, e instanceof Error ? e.message : String(e));
}
