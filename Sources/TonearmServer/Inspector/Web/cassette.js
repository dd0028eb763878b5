// The cassette tab: what is loaded (tracks with plays, rules and mappings with hits, scenarios),
// the strategy/scenario resets and the replay/missing mode switch.
import { h, $, fill } from './dom.js';
import { getJSON, postJSON } from './api.js';
import { statusClass, statusText, formatCount } from './format.js';

let status = () => {};
let onState = () => {};
let stale = true;
let lastJSON = '';
let visible = () => false;

function table(label, columns, rows) {
  return h('table', {class: 'grid', 'aria-label': label},
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', {scope: 'col', text: c})))),
    h('tbody', {}, rows));
}

const empty = (text) => h('p', {class: 'muted', text});
const dash = (v) => (v === null || v === undefined || v === '' ? '—' : String(v));

function tracksView(tracks) {
  if (tracks.length === 0) return empty('No tracks.');
  const never = tracks.filter((t) => t.plays === 0).length;
  return [
    h('p', {class: 'muted', text: `${formatCount(tracks.length)} tracks, ${formatCount(never)} never replayed.`}),
    table('Tracks', ['#', 'Method', 'URL', 'Name', 'Status', 'Plays', ''], tracks.map((t) => {
      const marks = [];
      if (t.plays === 0) marks.push(h('span', {class: 'tag tag-never', text: 'never replayed'}));
      if (t.playable === false) marks.push(h('span', {class: 'tag tag-used', text: 'used up'}));
      return h('tr', {class: t.playable === false ? 'consumed' : t.plays === 0 ? 'never' : null},
        h('td', {class: 'num', text: t.position}), h('td', {class: 'mono', text: t.method}),
        h('td', {class: 'mono url', title: t.url, text: t.url}), h('td', {text: dash(t.name)}),
        h('td', {}, h('span', {class: statusClass(t.status), text: statusText(t.status)})),
        h('td', {class: 'num', text: t.plays}), h('td', {}, marks));
    }))];
}

function rulesView(rules) {
  if (rules.length === 0) return empty('No rules.');
  return table('Rules', ['#', 'Name', 'Method', 'Pattern', 'Hits', 'Origin'], rules.map((r) =>
    h('tr', {class: r.hits === 0 ? 'never' : null},
      h('td', {class: 'num', text: r.position}), h('td', {text: dash(r.name)}), h('td', {class: 'mono', text: dash(r.method)}),
      h('td', {class: 'mono url', title: r.pattern, text: r.pattern}), h('td', {class: 'num', text: r.hits}), h('td', {text: dash(r.origin)}))));
}

function mappingsView(mappings) {
  if (mappings.length === 0) return empty('No mappings.');
  return table('Mappings', ['Name', 'Method', 'URL', 'Hits', 'Scenario', 'Needs state', 'Sets state'], mappings.map((m) =>
    h('tr', {class: m.hits === 0 ? 'never' : null},
      h('td', {title: m.id, text: m.name || m.id}), h('td', {class: 'mono', text: dash(m.method)}),
      h('td', {class: 'mono url', title: m.url, text: dash(m.url)}), h('td', {class: 'num', text: m.hits}),
      h('td', {text: dash(m.scenario)}), h('td', {text: dash(m.requiredState)}), h('td', {text: dash(m.newState)}))));
}

function scenariosView(scenarios) {
  if (scenarios.length === 0) return empty('No scenarios.');
  return table('Scenarios', ['Scenario', 'State', 'States'], scenarios.map((s) =>
    h('tr', {}, h('td', {text: s.name}), h('td', {}, h('strong', {text: s.state})), h('td', {class: 'muted', text: (s.states || []).join(' → ')}))));
}

async function post(path, body, done) {
  try {
    const result = await postJSON(path, body);
    if (!result.ok) { status(`${done} failed: ${(result.data && result.data.error) || `HTTP ${result.status}`}`, true); return null; }
    status(`${done}.`);
    return result;
  } catch (error) {
    status(`${done} failed: ${error.message}`, true);
    return null;
  }
}

export async function refreshCassette() {
  stale = false;
  let c;
  try {
    c = await getJSON('./api/cassette');
  } catch (error) {
    status(`Could not load the cassette: ${error.message}`, true);
    return;
  }
  const json = JSON.stringify(c);
  if (json === lastJSON) return; // unchanged: keep the DOM (and the user's text selection)
  lastJSON = json;
  const tracks = c.tracks || [];
  const rules = c.rules || [];
  const mappings = c.mappings || [];
  const scenarios = c.scenarios || [];
  fill($('#cassette-info'),
    h('dt', {text: 'File'}), h('dd', {class: 'mono', text: c.file || 'none (nothing loaded from a file)'}),
    h('dt', {text: 'Format'}), h('dd', {text: dash(c.format)}),
    h('dt', {text: 'Strategy'}), h('dd', {text: dash(c.strategy)}));
  fill($('#cassette-body'),
    h('section', {class: 'block'}, h('h3', {text: `Tracks (${tracks.length})`}), tracksView(tracks)),
    h('section', {class: 'block'}, h('h3', {text: `Rules (${rules.length})`}), rulesView(rules)),
    h('section', {class: 'block'}, h('h3', {text: `Mappings (${mappings.length})`}), mappingsView(mappings)),
    h('section', {class: 'block'}, h('h3', {text: `Scenarios (${scenarios.length})`}), scenariosView(scenarios)));
}

// Called on every state event whose counts changed: refresh now when shown, else on next show.
export function cassetteChanged() {
  if (visible()) refreshCassette(); else stale = true;
}
export function cassetteShown() { if (stale) refreshCassette(); }

// The mode radios reflect the server's mode; "all"/"passthrough" (set at launch) check neither. While
// a switch the user asked for is on its way, a state event (sent before the server switched) must not
// put the radio back: the answer to the switch decides.
let currentMode = null;
let switching = false;
export function showMode(mode) {
  currentMode = mode;
  if (switching) return;
  for (const input of document.querySelectorAll('input[name="mode"]')) input.checked = input.value === mode;
}

export function initCassette(context) {
  ({status, onState, visible} = context);
  $('#reset-scenarios').addEventListener('click', async () => {
    if (await post('./api/scenarios/reset', {}, 'Reset scenarios')) refreshCassette();
  });
  $('#rewind').addEventListener('click', async () => {
    if (await post('./api/reset', {}, 'Rewound strategies')) refreshCassette();
  });
  for (const input of document.querySelectorAll('input[name="mode"]')) {
    input.addEventListener('change', async () => {
      switching = true;
      let result;
      try {
        result = await post('./api/mode', {mode: input.value}, `Switched to ${input.value} mode`);
      } finally {
        switching = false;
      }
      if (result && result.data) onState(result.data);
      else showMode(currentMode); // failed: back to the mode the server has
      refreshCassette();
    });
  }
}
