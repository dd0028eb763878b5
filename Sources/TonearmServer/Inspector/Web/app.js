// Entry point: tabs, the header bar, the status line, and the event stream feeding the tabs.
import { $, throttle } from './dom.js';
import { getJSON, connectEvents } from './api.js';
import { initExchanges, catchUp, onExchangesEvent, onCompletedEvent } from './exchanges.js';
import { initMisses, refreshMisses } from './misses.js';
import { initCassette, refreshCassette, cassetteChanged, cassetteShown, showMode } from './cassette.js';
import { initExplain } from './explain.js';
import { formatCount } from './format.js';

// ---- status line (role="status": screen readers announce what an action did) ----------------------

let statusTimer = 0;
function status(text, isError = false) {
  const line = $('#status');
  line.textContent = text;
  line.classList.toggle('error', isError);
  clearTimeout(statusTimer);
  // Successes fade after a while; errors stay until the next message.
  if (!isError) statusTimer = setTimeout(() => { line.textContent = ''; }, 10000);
}

// ---- tabs -----------------------------------------------------------------------------------------

const tabs = [...document.querySelectorAll('[role="tab"]')];
let current = 'exchanges';

function selectTab(tab, focus = false) {
  for (const t of tabs) {
    const selected = t === tab;
    t.setAttribute('aria-selected', selected ? 'true' : 'false');
    t.tabIndex = selected ? 0 : -1;
    $(`#${t.getAttribute('aria-controls')}`).hidden = !selected;
  }
  current = tab.dataset.tab;
  if (focus) tab.focus();
  if (current === 'misses') refreshMisses();
  if (current === 'cassette') cassetteShown();
}

for (const tab of tabs) {
  tab.addEventListener('click', () => selectTab(tab));
  // Arrow keys move between tabs (the WAI-ARIA tabs pattern, automatic activation).
  tab.addEventListener('keydown', (e) => {
    const i = tabs.indexOf(tab);
    const next = {ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1}[e.key];
    if (next === undefined) return;
    e.preventDefault();
    selectTab(tabs[(next + tabs.length) % tabs.length], true);
  });
}

// ---- header bar -----------------------------------------------------------------------------------

let lastState = null;
// The misses list is refreshed when shown; while hidden, selecting its tab refreshes it.
const missesChanged = throttle(() => { if (current === 'misses') refreshMisses(); }, 500);
const countsChanged = throttle(cassetteChanged, 1000);

function setMissCount(n) {
  $('#h-misses').textContent = formatCount(n);
  const badge = $('#miss-badge');
  badge.textContent = formatCount(n);
  badge.hidden = n === 0;
}

function onState(s) {
  $('#h-mode').textContent = s.mode || '—';
  $('#h-mode').dataset.mode = s.mode || '';
  const file = $('#h-cassette');
  if (s.cassette) {
    file.textContent = s.cassette.split('/').pop() + (s.cassetteWritable === false ? ' (read-only)' : '');
    file.title = s.cassetteWritable === false && s.cassetteWhyNot ? `${s.cassette}\n${s.cassetteWhyNot}` : s.cassette;
  } else {
    file.textContent = 'none';
    file.title = s.cassetteWhyNot || 'No cassette file';
  }
  $('#h-exchanges').textContent = formatCount(s.exchanges);
  setMissCount(s.misses || 0);
  showMode(s.mode);

  const previous = lastState;
  lastState = s;
  if (!previous) return;
  if (previous.misses !== s.misses) missesChanged();
  if (previous.exchanges !== s.exchanges || previous.misses !== s.misses || previous.mode !== s.mode) countsChanged();
}

function onConnection(state) {
  const indicator = $('#connection');
  indicator.dataset.state = state;
  $('#conn-text').textContent = state;
}

// ---- start ----------------------------------------------------------------------------------------

initExchanges({status, onMissSeen: missesChanged});
initMisses({status, onCount: setMissCount});
initCassette({status, onState, visible: () => current === 'cassette'});
initExplain({status});
$('#reload-cassette').addEventListener('click', refreshCassette);

// Load what exists, then follow the stream. Every (re)connection catches up from the last id kept,
// so nothing is lost between the first load and the stream opening, or while it was down.
getJSON('./api/state').then(onState).catch((error) => status(`Could not load the state: ${error.message}`, true));
catchUp();
connectEvents({onExchanges: onExchangesEvent, onCompleted: onCompletedEvent, onState, onOpen: catchUp, onConnection});
