// The live exchanges tab: the client-side journal copy (at most 10,000 summaries), the filters,
// the virtual list (newest first) and the detail pane.
import { h, $, fill, copyText } from './dom.js';
import { getJSON } from './api.js';
import { VirtualList } from './virtual-list.js';
import { sourceClass, statusClass, statusText, formatMs, formatTime, formatCount, headersTable, bodyView, section, streamNote, streamTable } from './format.js';
import { missView } from './misses.js';

const MAX_ENTRIES = 10000;
const ROW_HEIGHT = 22; // must match .vrow height in style.css

let entries = []; // every kept summary, oldest first (ids increase)
let view = [];    // the ones passing the filters, oldest first; the list shows it reversed
let lastId = -1;
let filters = {source: '', method: '', status: null, text: ''};
let list;
let onMissSeen = () => {};
let status = () => {};
let chain = Promise.resolve(); // serializes loads and events so entries stay in id order

// ---- filters -------------------------------------------------------------------------------------

// "2xx", "404", "4xx 5xx", "40x", "none" (no response). Returns a predicate, null (no filter) or
// undefined (invalid text).
function parseStatus(text) {
  const tokens = text.trim().toLowerCase().split(/[\s,]+/).filter(Boolean);
  if (tokens.length === 0) return null;
  const tests = [];
  for (const token of tokens) {
    if (token === 'none' || token === '-' || token === '—') { tests.push((s) => s === null); continue; }
    const match = /^([1-5]\d{0,2})(x*)$/.exec(token);
    if (!match || match[1].length + match[2].length > 3) return undefined;
    const prefix = match[1];
    tests.push(prefix.length === 3 ? (s) => s === Number(prefix) : (s) => s !== null && String(s).startsWith(prefix));
  }
  return (s) => tests.some((test) => test(s ?? null));
}

function matches(e) {
  if (filters.source && e.source !== filters.source) return false;
  if (filters.method && e.method !== filters.method) return false;
  if (filters.status && !filters.status(e.status)) return false;
  if (filters.text && !e.searchUrl.includes(filters.text)) return false;
  return true;
}

const filtering = () => filters.source || filters.method || filters.status || filters.text;

// Re-filters everything and re-renders: the path measured by the 10,000-entry budget.
function applyFilters() {
  view = filtering() ? entries.filter(matches) : entries.slice();
  showView();
}

function readFilters() {
  const statusInput = $('#f-status');
  const parsed = parseStatus(statusInput.value);
  statusInput.setAttribute('aria-invalid', parsed === undefined ? 'true' : 'false');
  filters = {
    source: $('#f-source').value,
    method: $('#f-method').value,
    status: parsed || null,
    text: $('#f-text').value.trim().toLowerCase(),
  };
  applyFilters();
}

// ---- the list ------------------------------------------------------------------------------------

const itemAt = (i) => view[view.length - 1 - i];

// Binary search: entries are in id order, so are their filtered views.
function indexInView(id) {
  let lo = 0; let hi = view.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (view[mid].id === id) return view.length - 1 - mid;
    if (view[mid].id < id) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}

function showView(prepended = 0) {
  list.setItems(view.length, itemAt, {prepended});
  $('#f-count').textContent = filtering()
    ? `${formatCount(view.length)} of ${formatCount(entries.length)}`
    : `${formatCount(entries.length)} exchanges`;
  const empty = $('#list-empty');
  empty.hidden = view.length > 0;
  empty.textContent = entries.length === 0 ? 'Waiting for exchanges…' : 'No exchange matches the filters.';
}

function createRow() {
  return h('div', {class: 'row'},
    h('span', {class: 'c-method'}), h('span', {class: 'c-url'}), h('span', {class: 'c-status'}),
    h('span', {class: 'c-source'}, h('span', {class: 'src'}), h('span', {class: 'c-detail'})),
    h('span', {class: 'c-ms'}), h('span', {class: 'c-time'}));
}

function updateRow(row, e) {
  const [method, url, st, source, ms, time] = row.children;
  method.textContent = e.method;
  url.textContent = e.url;
  url.title = e.url;
  st.textContent = statusText(e.status);
  st.className = `c-status ${statusClass(e.status)}`;
  source.firstChild.textContent = e.source;
  source.firstChild.className = sourceClass(e.source);
  const detail = [e.detail, streamNote(e.stream)].filter(Boolean).join(' · ');
  source.lastChild.textContent = detail;
  source.title = detail ? `${e.source}: ${detail}` : e.source;
  ms.textContent = formatMs(e.ms);
  time.textContent = formatTime(e.time);
  time.title = e.time;
  row.setAttribute('aria-label', `${e.method} ${e.url}, ${statusText(e.status)}, ${e.source}${detail ? ` ${detail}` : ''}, ${formatMs(e.ms)}`);
  row.classList.toggle('is-miss', e.source === 'miss');
  row.classList.toggle('is-error', e.status === null || e.status >= 400 || ['refused', 'upstream-error', 'fault', 'cancelled'].includes(e.source));
}

// Adds summaries with ids above the last one kept (duplicates from a catch-up are dropped), drops
// the oldest beyond 10,000, and updates the list without re-filtering everything.
function addEntries(incoming) {
  const fresh = incoming.filter((e) => e.id > lastId).sort((a, b) => a.id - b.id);
  if (fresh.length === 0) return;
  let added = 0;
  let sawMiss = false;
  for (const e of fresh) {
    e.searchUrl = String(e.url).toLowerCase();
    entries.push(e);
    if (matches(e)) { view.push(e); added++; }
    if (e.source === 'miss') sawMiss = true;
    addMethodOption(e.method);
  }
  lastId = fresh[fresh.length - 1].id;
  if (entries.length > MAX_ENTRIES) {
    entries = entries.slice(entries.length - MAX_ENTRIES);
    const oldest = entries[0].id;
    let cut = 0;
    while (cut < view.length && view[cut].id < oldest) cut++;
    if (cut) view = view.slice(cut);
  }
  showView(added);
  if (sawMiss) onMissSeen();
}

function forget() {
  entries = [];
  view = [];
  lastId = -1;
  showView();
}

// Methods beyond the usual ones (PROPFIND, custom verbs) become filter options when first seen.
const knownMethods = new Set();
function addMethodOption(method) {
  if (knownMethods.has(method)) return;
  knownMethods.add(method);
  const select = $('#f-method');
  if ([...select.options].some((o) => o.value === method)) return;
  select.append(h('option', {value: method, text: method}));
}

// ---- loading and the event stream -----------------------------------------------------------------

const PAGE = 10000; // the server's default and maximum page

// Fetches what is newer than the last id kept (the newest `limit` of it); a full page means there may
// be more (at most a few pages: only the newest 10,000 are kept anyway).
async function fetchAfter(limit = PAGE) {
  for (let pages = 0; pages < 4; pages++) {
    const query = (lastId >= 0 ? `?after=${encodeURIComponent(lastId)}&` : '?') + `limit=${limit}`;
    const page = await getJSON(`./api/exchanges${query}`);
    // Fewer exchanges in total than our last id: the server restarted and its ids began again.
    if (typeof page.total === 'number' && page.total < lastId) { forget(); continue; }
    const got = (page.entries || []).length;
    addEntries(page.entries || []);
    if (got < limit || limit < PAGE) return;
  }
}

// Runs `task` after everything queued before it; a failure is reported, not fatal to the queue.
function enqueue(task) {
  chain = chain.then(task).catch((error) => status(`Could not load exchanges: ${error.message}`, true));
  return chain;
}

// What exists now. Also used after every (re)connection of the event stream, so nothing that
// happened while it was down is missed (entries already kept are skipped by id).
export const catchUp = () => enqueue(fetchAfter);

// Under heavy traffic the feed skips exchanges (it sends at most a few hundred a tenth of a second).
// The page fetches what it skipped at most every CATCH_UP_MS, the newest CATCH_UP_LIMIT of it: a page
// mirroring tens of thousands of exchanges a second would cost the server as much as the traffic.
const CATCH_UP_MS = 2000;
const CATCH_UP_LIMIT = 1000;
let lastCatchUp = 0;

export function onExchangesEvent(data) {
  enqueue(async () => {
    // `skipped` entries were never sent: fetch from the last id kept, which includes them and this
    // event's own entries, unless a catch-up ran moments ago (then the gap stays until the next one).
    if (data.skipped > 0 && performance.now() - lastCatchUp >= CATCH_UP_MS) {
      lastCatchUp = performance.now();
      await fetchAfter(CATCH_UP_LIMIT);
    }
    addEntries(data.entries || []);
  });
}

// Streams that ended since their heads were listed (a WebSocket closed, a relayed stream recorded
// whole): their summaries replace the kept ones, and an open detail pane showing one reloads. `null`
// entries: the server no longer remembers which, so the list is loaded again.
export function onCompletedEvent(data) {
  enqueue(async () => {
    if (!Array.isArray(data.entries)) { forget(); await fetchAfter(); return; }
    let changed = false;
    for (const e of data.entries) {
      const at = entryIndex(e.id);
      if (at < 0) continue;
      e.searchUrl = String(e.url).toLowerCase();
      entries[at] = e;
      const inView = view.findIndex((v) => v.id === e.id);
      if (inView >= 0) view[inView] = e;
      changed = true;
      if (openId === e.id) openDetail(e);
    }
    if (changed) { showView(); list.refresh(); }
  });
}

// Binary search of the kept entries by id.
function entryIndex(id) {
  let lo = 0; let hi = entries.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].id === id) return mid;
    if (entries[mid].id < id) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}

// ---- detail pane ----------------------------------------------------------------------------------

let detailToken = 0;
let openId = null;
let followTimer = 0;

function closeDetail() {
  detailToken++;
  openId = null;
  $('#detail').hidden = true;
  $('#exchange-list').focus();
}

async function openDetail(summary) {
  const pane = $('#detail');
  const token = ++detailToken;
  openId = summary.id;
  pane.hidden = false;
  fill(pane, detailHead(summary, null), h('p', {class: 'muted pad', text: 'Loading…'}));
  let detail;
  try {
    detail = await getJSON(`./api/exchanges/${encodeURIComponent(summary.id)}`);
  } catch (error) {
    if (token !== detailToken) return;
    const text = error.status === 404 ? 'This exchange is no longer kept by the journal.' : `Could not load: ${error.message}`;
    fill(pane, detailHead(summary, null), h('p', {class: 'error pad', text}));
    return;
  }
  if (token !== detailToken) return; // another row was opened meanwhile
  fill(pane, detailHead(detail, detail.curl), detailBody(detail));
}

function detailHead(e, curl) {
  const copy = h('button', {type: 'button', disabled: !curl, text: 'Copy as curl'});
  copy.addEventListener('click', async () => {
    if (await copyText(curl, copy)) status('Copied the curl command.');
  });
  return h('div', {class: 'detail-head'},
    h('h2', {class: 'detail-title'}, h('span', {class: 'method', text: e.method}), ' ', h('span', {class: 'url', text: e.url})),
    h('div', {class: 'detail-actions'}, copy,
      h('button', {type: 'button', class: 'close', 'aria-label': 'Close detail', title: 'Close (Esc)', text: '×', on: {click: closeDetail}})));
}

function detailBody(d) {
  const by = d.answeredBy || {};
  const answered = h('dl', {class: 'facts-list'},
    h('dt', {text: 'Status'}), h('dd', {}, h('span', {class: statusClass(d.status), text: statusText(d.status)})),
    h('dt', {text: 'Answered by'}), h('dd', {}, h('span', {class: sourceClass(by.kind || d.source), text: by.kind || d.source}), ' ', by.detail || d.detail || ''),
    by.why ? [h('dt', {text: 'Why'}), h('dd', {text: by.why})] : null,
    by.request ? [h('dt', {text: by.request.pattern ? 'Rule matches' : 'Recorded request'}),
      h('dd', {class: 'mono', text: `${by.request.method || '*'} ${by.request.url || by.request.pattern || ''}${by.request.name ? ` (${by.request.name})` : ''}`})] : null,
    h('dt', {text: 'Duration'}), h('dd', {text: formatMs(d.ms)}),
    h('dt', {text: 'Time'}), h('dd', {text: d.time}),
    h('dt', {text: 'Exchange'}), h('dd', {text: `#${d.id}`}));

  const request = d.request || {};
  const response = d.response;
  return h('div', {class: 'detail-scroll'},
    section('What answered', answered),
    d.miss ? section('Miss', missView(d.miss, {method: request.method || d.method, url: request.url || d.url})) : null,
    d.webSocket ? section(`WebSocket conversation (${streamNote(d.stream)})`, conversationView(d.webSocket)) : null,
    d.parts ? section(`Stream (${streamNote(d.stream)}, times from the head)`, partsView(d.parts)) : null,
    section('Request headers', headersTable(request.headers, 'Request headers')),
    section('Request body', bodyView(request.body, 'Request body')),
    response
      ? [section(`Response headers (${response.status})`, headersTable(response.headers, 'Response headers')),
        section('Response body', bodyView(response.body, 'Response body'))]
      : section('Response', h('p', {class: 'muted', text: 'No response (the client got a transport error).'})));
}

function leftOutNote(count, what) {
  return count > 0 ? h('p', {class: 'truncated', text: `${formatCount(count)} more ${what} not kept by the journal`}) : null;
}

function conversationView(ws) {
  const close = ws.close
    ? `Closed by the ${ws.close.from} at ${formatMs(ws.close.ms)}: ${ws.close.code ?? 'no code'}${ws.close.reason ? ` (${ws.close.reason})` : ''}`
    : 'No close was exchanged (the connection ended).';
  return h('div', {class: 'stream-view'},
    streamTable(ws.messages, 'WebSocket messages, times from the upgrade', true),
    leftOutNote(ws.leftOut, 'messages'),
    h('p', {class: 'muted', text: close}));
}

function partsView(parts) {
  return h('div', {class: 'stream-view'},
    streamTable(parts.parts, 'Body parts as they arrived, times from the head', false),
    leftOutNote(parts.leftOut, 'parts'));
}

// ---- setup ----------------------------------------------------------------------------------------

export function initExchanges(context) {
  onMissSeen = context.onMissSeen;
  status = context.status;
  list = new VirtualList($('#exchange-list'), {
    rowHeight: ROW_HEIGHT,
    createRow,
    updateRow,
    keyOf: (e) => e.id,
    indexOfKey: indexInView,
    // While the detail pane is open it follows the keyboard selection (debounced: a held arrow
    // key should not fetch every row it passes).
    onSelect: (e) => {
      clearTimeout(followTimer);
      if (openId !== null && openId !== e.id) followTimer = setTimeout(() => openDetail(e), 80);
    },
    onOpen: openDetail,
  });
  for (const id of ['#f-source', '#f-method']) $(id).addEventListener('change', readFilters);
  for (const id of ['#f-status', '#f-text']) $(id).addEventListener('input', readFilters);
  $('#f-clear').addEventListener('click', () => {
    $('#f-source').value = ''; $('#f-method').value = ''; $('#f-status').value = ''; $('#f-text').value = '';
    readFilters();
  });
  $('#detail').addEventListener('keydown', (e) => { if (e.key === 'Escape') closeDetail(); });
  $('#exchange-list').addEventListener('keydown', (e) => { if (e.key === 'Escape' && openId !== null) closeDetail(); });
  showView();
}
