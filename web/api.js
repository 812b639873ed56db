// The HTTP/JSON API of the gateway: the only thing this app talks to. Fields use the protos'
// own names (snake_case); zero values are present.

// get reads path; with key (an API key) it is the bearer, for what only its owner may read.
export async function get(path, key) {
  const headers = { Accept: 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  const r = await fetch(path, { headers });
  const body = await r.json();
  if (!r.ok) throw new Error(body.message || r.statusText);
  return body;
}

// post sends msg; with an admin key (kept in this tab only: sessionStorage) it is the bearer.
export async function post(path, msg) {
  const headers = { 'Content-Type': 'application/json' };
  const key = sessionStorage.getItem('orrery-admin-key');
  if (key) headers.Authorization = `Bearer ${key}`;
  const r = await fetch(path, { method: 'POST', headers, body: JSON.stringify(msg) });
  const body = await r.json();
  if (!r.ok) throw Object.assign(new Error(body.message || r.statusText), { code: body.code, status: r.status });
  return body;
}

// stream reads a server stream (newline-delimited JSON, each line {"result": msg} or
// {"error": status}) and calls onMessage for each result until the stream ends or signal aborts.
export async function stream(path, onMessage, signal) {
  const r = await fetch(path, { signal, headers: { Accept: 'application/json' } });
  if (!r.ok) {
    const body = await r.json().catch(() => ({}));
    throw new Error(body.message || r.statusText);
  }
  const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line) continue;
      const m = JSON.parse(line);
      if (m.error) throw new Error(m.error.message);
      onMessage(m.result);
    }
  }
}

// play opens a seat over the WebSocket bridge of Play: join with the token, then each
// PlayResponse goes to onMessage; send(answer) answers a decision.
// With eventsSeen 0 the server sends the seat's events from the start (a reloaded page).
export function play(token, onMessage, onClose, { eventsSeen } = {}) {
  const url = new URL('/v1/play', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(url);
  // A page shows no observation's text: the server need not build it.
  const join = { token, receive: { omit_text: true } };
  if (eventsSeen !== undefined) join.events_seen = String(eventsSeen);
  ws.onopen = () => ws.send(JSON.stringify({ join }));
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => onClose && onClose();
  return {
    answer(a) { ws.send(JSON.stringify({ answer: a })); },
    resign() { ws.send(JSON.stringify({ resign: {} })); },
    close() { ws.close(); },
  };
}
