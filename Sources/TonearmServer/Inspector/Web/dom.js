// Safe DOM helpers. Everything the server sends is recorded traffic, i.e. DATA: it goes into the
// page only as text nodes, input values and plain (non-URL) attributes. These helpers are the only
// way the other modules build elements, so the rule is enforced in one place.

// Attributes that could run script or load something if a value came from data.
const UNSAFE_ATTRIBUTE = /^(on|href$|src$|srcdoc$|srcset$|action$|formaction$|xlink:href$|style$|poster$|data$)/i;

// h('button', {class: 'x', type: 'button', on: {click}}, 'text', child, [more])
// Special keys: `class`, `text` (textContent), `on` (event listeners), and DOM properties that are
// not attributes (`value`, `checked`, `disabled`, `hidden`, `readOnly`).
const PROPERTIES = new Set(['value', 'checked', 'disabled', 'hidden', 'readOnly', 'selected']);

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = String(value);
    else if (name === 'on') for (const [event, fn] of Object.entries(value)) node.addEventListener(event, fn);
    else if (PROPERTIES.has(name)) node[name] = value;
    else setAttr(node, name, value === true ? '' : value);
  }
  append(node, children);
  return node;
}

// setAttribute, refusing the attributes that take URLs or script.
export function setAttr(node, name, value) {
  if (UNSAFE_ATTRIBUTE.test(name)) throw new Error(`refusing to set attribute ${name} from code`);
  node.setAttribute(name, String(value));
}

// Appends strings (as text nodes), numbers, nodes and (nested) arrays; skips null/undefined/false.
export function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
  return node;
}

// Replaces all children of `node`.
export function fill(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

export const $ = (selector, root = document) => root.querySelector(selector);

// Copies text to the clipboard; when the Clipboard API is refused (no permission, not a secure
// context), shows the text in a selected read-only textarea after `anchor` so the user can press
// Ctrl+C. Returns true when the clipboard write worked.
export async function copyText(text, anchor) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const old = anchor.parentNode.querySelector('textarea.copy-fallback');
    if (old) old.remove();
    const area = h('textarea', {class: 'copy-fallback', readOnly: true, rows: 3, 'aria-label': 'Text to copy (press Ctrl+C)', value: text});
    anchor.after(area);
    area.focus();
    area.select();
    return false;
  }
}

// Calls fn at most once per `ms`, always running the latest call at the end (trailing edge).
export function throttle(fn, ms) {
  let timer = null;
  let last = 0;
  return (...args) => {
    const wait = last + ms - Date.now();
    clearTimeout(timer);
    if (wait <= 0) { last = Date.now(); fn(...args); return; }
    timer = setTimeout(() => { last = Date.now(); fn(...args); }, wait);
  };
}
