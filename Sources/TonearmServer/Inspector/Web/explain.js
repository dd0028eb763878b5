// The explain tab: paste a curl command or a raw HTTP request, see its canonical form, its key and
// what would answer it. The server never sends it upstream nor journals it.
import { h, $, fill } from './dom.js';
import { postJSON } from './api.js';
import { sourceClass, statusClass, statusText, headersTable, bodyView, section } from './format.js';
import { missView } from './misses.js';

// 1-based line/column → offset in the textarea's value (column counted in UTF-16 units, as JS does).
function offsetOf(text, line, column) {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) offset += lines[i].length + 1;
  return Math.min(text.length, offset + Math.max(0, (column || 1) - 1));
}

function showError(data, input) {
  const where = data.line ? `Line ${data.line}${data.column ? `, column ${data.column}` : ''}: ` : '';
  fill($('#explain-result'), h('p', {class: 'error', role: 'alert', text: `${where}${data.error || 'cannot read this request'}`}));
  if (data.line) {
    // Put the caret on the error so the user sees where it is.
    const at = offsetOf(input.value, data.line, data.column);
    input.focus();
    input.setSelectionRange(at, Math.min(input.value.length, at + 1));
  }
}

function showAnswer(data) {
  const request = data.request || {};
  const answer = data.answer || {};
  const what = answer.kind === 'miss'
    ? h('p', {}, h('span', {class: sourceClass('miss'), text: 'miss'}), ' nothing would answer this request.')
    : h('p', {}, 'Answered by ', h('span', {class: sourceClass(answer.kind), text: answer.kind}), ' ', answer.detail || '',
      answer.status !== undefined ? [' with ', h('span', {class: statusClass(answer.status), text: statusText(answer.status)})] : null);
  fill($('#explain-result'),
    section('What would answer', what),
    section('Key', h('code', {class: 'key', text: data.key || ''})),
    section('Canonical form', h('pre', {class: 'text', tabindex: 0, text: data.canonical || ''})),
    answer.miss ? section('Nearest candidates', missView(answer.miss, {method: request.method, url: request.url})) : null,
    section('Request as read', h('p', {class: 'mono', text: `${request.method || ''} ${request.url || ''}`}),
      headersTable(request.headers, 'Request headers'), bodyView(request.body, 'Request body')));
}

export function initExplain({status}) {
  const input = $('#explain-text');
  const go = $('#explain-go');
  const run = async () => {
    if (!input.value.trim()) { showError({error: 'Paste a curl command or a raw HTTP request first.'}, input); return; }
    go.disabled = true;
    try {
      const result = await postJSON('./api/explain', {text: input.value});
      if (result.ok) showAnswer(result.data || {});
      else showError(result.data || {error: `HTTP ${result.status}`}, input);
    } catch (error) {
      status(`Explain failed: ${error.message}`, true);
    } finally {
      go.disabled = false;
    }
  };
  go.addEventListener('click', run);
  // Ctrl/Cmd+Enter in the textarea runs it, as in most developer consoles.
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); } });
}
