// Formatting shared by the tabs: sizes, times, statuses, header lists and bodies.
import { h } from './dom.js';

// The `source` values of the contract; anything else gets a neutral class.
export const SOURCES = ['track', 'rule', 'recorded', 'stub', 'mapping', 'network', 'miss', 'refused',
  'upstream-error', 'fault', 'cancelled'];
const KNOWN_SOURCE = new Set(SOURCES);
export const sourceClass = (source) => `src src-${KNOWN_SOURCE.has(source) ? source : 'other'}`;

export function statusClass(status) {
  if (status === null || status === undefined) return 'st st-none';
  return `st st-${Math.floor(status / 100)}xx`;
}
export const statusText = (status) => (status === null || status === undefined ? '—' : String(status));

export function formatMs(ms) {
  if (typeof ms !== 'number') return '';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export function formatBytes(n) {
  if (typeof n !== 'number') return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

// "13:40:12.345" in local time; the full ISO time goes in the title.
export function formatTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const two = (n) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

export const formatCount = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '0');

// [[name, value], ...] as a two-column table.
export function headersTable(headers, label) {
  if (!headers || headers.length === 0) return h('p', {class: 'muted', text: 'No headers'});
  return h('table', {class: 'kv', 'aria-label': label},
    h('tbody', {}, headers.map(([name, value]) =>
      h('tr', {}, h('th', {scope: 'row', text: name}), h('td', {text: value})))));
}

// A Body of the contract: pretty JSON / text as given, binary as the server's hex dump.
export function bodyView(body, label) {
  const wrap = h('div', {class: 'body'});
  if (!body || body.kind === 'empty' || body.size === 0) {
    wrap.append(h('p', {class: 'muted', text: 'No body'}));
    return wrap;
  }
  const facts = [body.kind, body.contentType, formatBytes(body.size)].filter(Boolean).join(' · ');
  wrap.append(h('p', {class: 'body-facts', text: facts}));
  if (body.truncated) {
    wrap.append(h('p', {class: 'truncated', text: `truncated: kept ${formatBytes(body.kept)} of ${formatBytes(body.size)} (${body.kept} of ${body.size} bytes)`}));
  }
  if (body.kind === 'binary') {
    wrap.append(h('pre', {class: 'hex', 'aria-label': `${label} (hex dump)`, tabindex: 0, text: body.hex || ''}));
  } else {
    wrap.append(h('pre', {class: 'text', 'aria-label': label, tabindex: 0, text: body.text ?? ''}));
  }
  return wrap;
}

// A labelled section that can be collapsed (native <details>, keyboard accessible for free).
export function section(title, ...content) {
  return h('details', {class: 'sec', open: true}, h('summary', {text: title}), ...content);
}

// A stream that ended, as the list's detail column notes it: "12 messages, closed 1000" for a
// WebSocket, "30 parts over 2.4 s" for a paced body.
export function streamNote(stream) {
  if (!stream) return '';
  if (typeof stream.messages === 'number') {
    const closed = stream.close === null || stream.close === undefined ? 'no close' : `closed ${stream.close}`;
    return `${formatCount(stream.messages)} message${stream.messages === 1 ? '' : 's'}, ${closed}`;
  }
  return `${formatCount(stream.parts)} part${stream.parts === 1 ? '' : 's'} over ${formatMs(stream.ms)}`;
}

// Rows of a stream (WebSocket messages, or a paced body's parts) as a table: when (from the upgrade or
// the head), who sent it (messages only), its size and its content as text, or the server's hex dump.
export function streamTable(rows, label, withSender) {
  if (!rows || rows.length === 0) return h('p', {class: 'muted', text: 'Nothing was sent.'});
  return h('table', {class: 'stream', 'aria-label': label},
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col', text: 'At'}),
      withSender ? h('th', {scope: 'col', text: 'From'}) : null,
      h('th', {scope: 'col', text: 'Size'}),
      h('th', {scope: 'col', text: 'Content'}))),
    h('tbody', {}, rows.map((row) => h('tr', {class: row.from ? `from-${row.from}` : ''},
      h('td', {class: 'at', text: formatMs(row.ms)}),
      withSender ? h('td', {class: 'from', text: row.from === 'client' ? 'client →' : '← server'}) : null,
      h('td', {class: 'size', text: `${formatBytes(row.size)}${row.kind === 'binary' ? ' binary' : ''}`}),
      h('td', {}, h('pre', {class: row.text === undefined ? 'hex' : 'text', text: row.text ?? row.hex ?? ''}))))));
}
