// The server's HTTP contract (docs: inspector-contract.md), as small fetch/EventSource wrappers.
// Every URL is relative to the page, so the token segment of the page's path goes with each request.

export class ApiError extends Error {
  constructor(status, data) {
    super((data && data.error) || `HTTP ${status}`);
    this.status = status;
    this.data = data;
  }
}

async function readBody(response) {
  const text = await response.text();
  if (!text) return null;
  try { return JSON.parse(text); } catch { return {error: text}; }
}

// GET a JSON document; throws ApiError on a non-2xx answer.
export async function getJSON(path) {
  const response = await fetch(path, {headers: {Accept: 'application/json'}, cache: 'no-store'});
  const data = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// POST a JSON body (the server refuses other content types on POST). Never throws for an HTTP
// status: callers show 409/400/502 errors, so they get {ok, status, data}.
export async function postJSON(path, body = {}) {
  const response = await fetch(path, {
    method: 'POST',
    headers: {'Content-Type': 'application/json', Accept: 'application/json'},
    body: JSON.stringify(body),
  });
  return {ok: response.ok, status: response.status, data: await readBody(response)};
}

// Opens ./events. EventSource reconnects by itself (sending Last-Event-ID); when the browser gives up
// (CLOSED, e.g. the server answered an error), a new one is opened after a growing delay.
// onConnection('connecting' | 'live' | 'reconnecting'); onOpen() after every (re)connection;
// onCompleted(data) when streams listed already have ended.
export function connectEvents({onExchanges, onCompleted, onState, onOpen, onConnection}) {
  let source = null;
  let delay = 1000;

  const parse = (event, fn) => {
    let data;
    try { data = JSON.parse(event.data); } catch { return; } // a malformed event is skipped, not fatal
    fn(data, event.lastEventId);
  };

  const open = () => {
    onConnection(source ? 'reconnecting' : 'connecting');
    source = new EventSource('./events');
    source.addEventListener('open', () => { delay = 1000; onConnection('live'); onOpen(); });
    source.addEventListener('exchanges', (e) => parse(e, onExchanges));
    source.addEventListener('completed', (e) => parse(e, onCompleted));
    source.addEventListener('state', (e) => parse(e, onState));
    source.addEventListener('error', () => {
      onConnection('reconnecting');
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 15000);
      }
    });
  };
  open();
}
