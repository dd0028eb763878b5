// The misses tab (the inbox of requests nothing answered) and `missView`, the rendering of one Miss
// with its nearest candidates, shared with the exchange detail and the explain tab.
import { h, $, fill, copyText } from './dom.js';
import { getJSON, postJSON } from './api.js';
import { formatTime, formatBytes } from './format.js';

const FIELD_NAMES = {
  method: 'method', origin: 'origin', path: 'path', queryParameter: 'query parameter', header: 'header',
  bodyKind: 'body kind', jsonBody: 'JSON body', formField: 'form field', rawBody: 'body', scenarioState: 'scenario state',
  unmetCondition: 'condition',
};

const candidateLabel = (c) => `${c.kind} #${c.position}`;
const values = (list) => (list === null || list === undefined ? '(absent)' : list.length === 0 ? '(empty)' : list.join(', '));

// A URL as text nodes, with the parts a difference names wrapped in <mark>: the origin, the path,
// and each `name=value` query pair whose name differs.
function markedUrl(url, differences) {
  if (!url) return [];
  const fields = new Set(differences.map((d) => d.field));
  const queryNames = new Set(differences.filter((d) => d.field === 'queryParameter' && d.name !== null).map((d) => d.name));
  const mark = (text, on) => (on && text ? h('mark', {text}) : text);
  const origin = (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url) || [''])[0];
  const rest = url.slice(origin.length);
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  const parts = [mark(origin, fields.has('origin')), mark(path, fields.has('path'))];
  if (q >= 0) {
    parts.push('?');
    rest.slice(q + 1).split('&').forEach((pair, i) => {
      if (i > 0) parts.push('&');
      let name = pair.split('=')[0];
      try { name = decodeURIComponent(name.replace(/\+/g, ' ')); } catch { /* keep it raw */ }
      parts.push(mark(pair, queryNames.has(name)));
    });
  }
  return parts;
}

// One nearest candidate: recorded vs received side by side, then every difference.
function candidateView(candidate, received, acceptButton) {
  const diffs = candidate.differences || [];
  const methodDiffers = diffs.some((d) => d.field === 'method');
  const recordedLine = candidate.url !== null && candidate.url !== undefined
    ? markedUrl(candidate.url, diffs)
    : [candidate.pattern || ''];
  const method = (m) => (methodDiffers ? h('mark', {text: m || '*'}) : (m || '*'));

  const table = diffs.length === 0
    ? h('p', {class: 'muted', text: 'No difference listed.'})
    : h('table', {class: 'diffs'},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col', text: 'Differs'}), h('th', {scope: 'col', text: 'Recorded'}), h('th', {scope: 'col', text: 'Received'}))),
      h('tbody', {}, diffs.map((d) => h('tr', {title: d.description || ''},
        h('th', {scope: 'row'}, h('mark', {text: FIELD_NAMES[d.field] || d.field}), d.name !== null && d.name !== undefined ? [' ', h('code', {text: d.name})] : null),
        h('td', {class: 'recorded', text: values(d.recorded)}),
        h('td', {class: 'received', text: values(d.received)})))));

  const response = candidate.response;
  return h('article', {class: 'candidate'},
    h('header', {class: 'candidate-head'},
      h('h4', {}, candidate.index === 0 ? 'Nearest ' : '', h('span', {class: `src src-${candidate.kind}`, text: candidateLabel(candidate)}),
        candidate.name ? [' ', h('span', {class: 'name', text: candidate.name})] : null),
      h('span', {class: 'muted', text: candidate.description || ''}),
      acceptButton),
    h('div', {class: 'compare'},
      h('div', {class: 'side'}, h('span', {class: 'side-label', text: 'Recorded'}), h('code', {}, method(candidate.method), ' ', recordedLine)),
      h('div', {class: 'side'}, h('span', {class: 'side-label', text: 'Received'}), h('code', {}, method(received.method), ' ', markedUrl(received.url, diffs)))),
    table,
    response ? h('p', {class: 'muted', text: `Accepting it answers ${response.status}${response.body && response.body.size ? `, ${formatBytes(response.body.size)} body` : ''}.`}) : null);
}

// A Miss: reason, candidates (each with its accept button when `actions` is given) and the report.
// `received` = {method, url} of the request that missed.
export function missView(miss, received, actions = null) {
  const nearest = miss.nearest || [];
  return h('div', {class: 'miss'},
    h('p', {class: 'reason'}, h('strong', {text: miss.reason || 'miss'}), miss.key ? h('span', {class: 'muted mono', text: ` key ${miss.key}`}) : null),
    nearest.length === 0
      ? h('p', {class: 'muted', text: 'No nearest candidate: nothing in the cassette looks like this request.'})
      : candidateView(nearest[0], received, actions ? actions.acceptButton(nearest[0]) : null),
    // The nearest one is what the user usually wants; the others stay one click away.
    nearest.length > 1
      ? h('details', {class: 'more'}, h('summary', {text: `${nearest.length - 1} more candidate${nearest.length > 2 ? 's' : ''}`}),
        nearest.slice(1).map((c) => candidateView(c, received, actions ? actions.acceptButton(c) : null)))
      : null,
    miss.report ? h('details', {class: 'report'}, h('summary', {text: 'Full report'}), h('pre', {text: miss.report})) : null);
}

// ---- the inbox ------------------------------------------------------------------------------------

const MAX_CARDS = 200;
let status = () => {};
let onCount = () => {};
const cards = new Map(); // miss id → {json, card}; kept across refreshes so open editors survive

// A button that is disabled with the server's reason as its title (and visible next to it).
function actionButton(text, enabled, whyNot, onClick) {
  const button = h('button', {type: 'button', text, disabled: !enabled, title: enabled ? null : whyNot || null});
  button.addEventListener('click', () => onClick(button));
  return button;
}

async function act(path, body, done) {
  let result;
  try {
    result = await postJSON(path, body);
  } catch (error) {
    status(`Request failed: ${error.message}`, true);
    return null;
  }
  if (result.ok) status(done(result.data || {}));
  await refreshMisses();
  return result;
}

function acceptedMessage(data) {
  return data.file ? `Accepted: written to ${data.file} as track #${data.track}` : 'Accepted.';
}

// A 409 from accept: the reason, and the track as Tonearm's native JSON for the user to copy.
function showNative(target, data) {
  const area = h('textarea', {class: 'native', readOnly: true, rows: 8, 'aria-label': 'The track as native JSON', value: data.native || ''});
  const copy = h('button', {type: 'button', text: 'Copy native JSON'});
  copy.addEventListener('click', async () => { if (await copyText(area.value, copy)) status('Copied the native JSON.'); });
  fill(target, h('p', {class: 'error', text: data.error || 'The cassette cannot be written.'}),
    data.native ? [h('p', {class: 'muted', text: 'Add this track to a cassette yourself:'}), area, copy] : null);
}

async function accept(entry, body, resultArea) {
  const result = await act(`./api/misses/${encodeURIComponent(entry.id)}/accept`, body, acceptedMessage);
  if (result && !result.ok) {
    const data = result.data || {};
    if (result.status === 409) showNative(resultArea, data);
    else fill(resultArea, h('p', {class: 'error', text: data.error || `HTTP ${result.status}`}));
    status(`Accept failed: ${data.error || `HTTP ${result.status}`}`, true);
  }
  return result;
}

// "Name: value" lines → [[name, value]]; throws on a line without a colon.
function parseHeaders(text) {
  return text.split('\n').map((line, i) => [line.replace(/\r$/, ''), i + 1]).filter(([line]) => line.trim() !== '').map(([line, n]) => {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`Headers line ${n}: expected "Name: value"`);
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
  });
}

// The "Accept edited response" editor, prefilled from a candidate's response.
function editor(entry, resultArea, close) {
  const candidates = (entry.miss.nearest || []).filter((c) => c.response);
  const statusInput = h('input', {type: 'number', min: 100, max: 599, required: true});
  const headers = h('textarea', {rows: 4, spellcheck: 'false'});
  const body = h('textarea', {rows: 8, spellcheck: 'false'});
  const note = h('p', {class: 'muted'});
  const error = h('p', {class: 'error', role: 'alert'});
  const from = h('select', {}, candidates.map((c) => h('option', {value: c.index, text: `${c.index === 0 ? 'nearest ' : ''}${candidateLabel(c)}`})),
    h('option', {value: '', text: 'empty response'}));

  const prefill = () => {
    const c = candidates.find((x) => String(x.index) === from.value);
    const r = c ? c.response : {status: 200, headers: [], body: null};
    statusInput.value = r.status || 200;
    headers.value = (r.headers || []).map(([n, v]) => `${n}: ${v}`).join('\n');
    const b = r.body;
    body.value = b && (b.kind === 'json' || b.kind === 'text') ? b.text || '' : '';
    note.textContent = !b ? '' : b.kind === 'binary' ? `The recorded body is binary (${formatBytes(b.size)}) and cannot be edited here; write a text body or leave it empty.`
      : b.truncated ? `The recorded body was truncated (kept ${b.kept} of ${b.size} bytes): check its end before accepting.` : '';
  };
  from.addEventListener('change', prefill);
  prefill();

  const id = `edit-${entry.id}`;
  const save = h('button', {type: 'button', class: 'primary', text: 'Accept this response'});
  save.addEventListener('click', async () => {
    let response;
    try {
      const code = Number(statusInput.value);
      if (!Number.isInteger(code) || code < 100 || code > 599) throw new Error('Status: a number from 100 to 599');
      response = {status: code, headers: parseHeaders(headers.value), body: body.value};
    } catch (e) {
      error.textContent = e.message;
      return;
    }
    error.textContent = '';
    save.disabled = true;
    const result = await accept(entry, {response}, resultArea);
    save.disabled = false;
    if (result && result.ok) close();
  });
  const label = (text, control, forId) => { control.id = forId; return h('label', {for: forId, text}); };
  return h('div', {class: 'editor', role: 'group', 'aria-label': `Edited response for miss #${entry.id}`},
    h('div', {class: 'editor-row'},
      label('Prefill from', from, `${id}-from`), from,
      label('Status', statusInput, `${id}-status`), statusInput),
    label('Headers (one "Name: value" per line)', headers, `${id}-headers`), headers,
    label('Body', body, `${id}-body`), body, note, error,
    h('div', {class: 'actions'}, save, h('button', {type: 'button', text: 'Cancel', on: {click: close}})));
}

function missCard(entry) {
  const miss = entry.miss;
  const a = miss.actions || {};
  const resultArea = h('div', {class: 'result', 'aria-live': 'polite'});
  const editorSlot = h('div');
  const received = {method: entry.method, url: entry.url};

  const acceptButton = (c) => actionButton(
    `Accept ${c.index === 0 ? 'nearest ' : ''}${candidateLabel(c)}`, a.accept && !!c.response,
    a.accept ? 'This candidate has no response to answer with' : a.acceptWhyNot,
    () => accept(entry, {candidate: c.index}, resultArea));

  const closeEditor = () => { editorSlot.replaceChildren(); edit.setAttribute('aria-expanded', 'false'); };
  const edit = actionButton('Accept edited response', a.accept, a.acceptWhyNot, () => {
    if (editorSlot.firstChild) { closeEditor(); return; }
    editorSlot.append(editor(entry, resultArea, closeEditor));
    edit.setAttribute('aria-expanded', 'true');
    editorSlot.querySelector('input').focus();
  });
  edit.setAttribute('aria-expanded', 'false');

  const record = actionButton('Record from upstream', a.record, a.recordWhyNot, async (button) => {
    button.disabled = true;
    const result = await act(`./api/misses/${encodeURIComponent(entry.id)}/record`, {},
      (d) => `Recorded from upstream: status ${d.status}${d.file ? `, written to ${d.file}` : ''}`);
    button.disabled = false;
    if (result && !result.ok) {
      const message = (result.data && result.data.error) || `HTTP ${result.status}`;
      fill(resultArea, h('p', {class: 'error', text: message}));
      status(`Record failed: ${message}`, true);
    }
  });

  const dismiss = actionButton('Dismiss', true, null, () =>
    act(`./api/misses/${encodeURIComponent(entry.id)}/dismiss`, {}, () => `Dismissed miss #${entry.id}`));

  const curl = actionButton('Copy as curl', true, null, async (button) => {
    try {
      const text = entry.curl || (await getJSON(`./api/exchanges/${encodeURIComponent(entry.id)}`)).curl;
      if (await copyText(text, button)) status('Copied the curl command.');
    } catch (error) {
      status(error.status === 404 ? 'This exchange is no longer kept: no curl command.' : `Copy failed: ${error.message}`, true);
    }
  });

  const whyNot = [!a.accept && a.acceptWhyNot ? `Accept: ${a.acceptWhyNot}` : null, !a.record && a.recordWhyNot ? `Record: ${a.recordWhyNot}` : null].filter(Boolean);
  return h('li', {class: 'miss-card', 'aria-label': `Miss #${entry.id}: ${entry.method} ${entry.url}`},
    h('header', {class: 'miss-head'},
      h('h3', {}, h('span', {class: 'method', text: entry.method}), ' ', h('span', {class: 'url', text: entry.url})),
      h('span', {class: 'muted', title: entry.time || '', text: `#${entry.id} · ${formatTime(entry.time)}`})),
    missView(miss, received, {acceptButton}),
    h('div', {class: 'actions', role: 'group', 'aria-label': `Actions for miss #${entry.id}`}, edit, record, dismiss, curl,
      whyNot.length ? h('span', {class: 'why-not', text: whyNot.join(' · ')}) : null),
    editorSlot, resultArea);
}

export async function refreshMisses() {
  let list;
  try {
    list = await getJSON('./api/misses');
  } catch (error) {
    status(`Could not load misses: ${error.message}`, true);
    return;
  }
  const container = $('#misses-list');
  const seen = new Set();
  const ordered = [];
  const open = list.filter((entry) => entry.miss && !entry.miss.dismissed);
  // A broken test run can leave thousands of misses; the first ones are what to fix first.
  for (const entry of open.slice(0, MAX_CARDS)) {
    seen.add(entry.id);
    const json = JSON.stringify(entry);
    let kept = cards.get(entry.id);
    // Rebuild a card only when its miss changed and nobody is editing in it.
    if (!kept || (kept.json !== json && !kept.card.querySelector('.editor'))) {
      kept = {json, card: missCard(entry)};
      cards.set(entry.id, kept);
    }
    ordered.push(kept.card);
  }
  for (const id of [...cards.keys()]) if (!seen.has(id)) cards.delete(id);
  // Only move what changed: moving a card out of the DOM would drop focus from inside it.
  const keep = new Set(ordered);
  for (const child of [...container.children]) if (!keep.has(child)) child.remove();
  ordered.forEach((card, i) => {
    if (container.children[i] !== card) container.insertBefore(card, container.children[i] || null);
  });
  $('#misses-empty').hidden = ordered.length > 0;
  const more = $('#misses-more');
  more.hidden = open.length <= MAX_CARDS;
  more.textContent = `Showing the first ${MAX_CARDS} of ${open.length} open misses: accept or dismiss some to see the rest.`;
  onCount(open.length);
}

export function initMisses(context) {
  status = context.status;
  onCount = context.onCount;
  $('#misses-refresh').addEventListener('click', refreshMisses);
}
