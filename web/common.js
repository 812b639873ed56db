// Shared helpers: seat colours, small DOM builders and event text.

export const seatColors = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4'];
export const seatColor = (s) => (s >= 0 ? seatColors[s % seatColors.length] : '#888');

// h builds an element: h('div', {class: 'x'}, child, 'text', ...).
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const svgNS = 'http://www.w3.org/2000/svg';
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function swatch(color) { return h('span', { class: 'swatch', style: `background:${color}` }); }

// enumName turns COLOR_RED into "red".
export function enumName(v, prefix) {
  if (typeof v !== 'string') return String(v);
  return (prefix && v.startsWith(prefix) ? v.slice(prefix.length) : v.replace(/^[A-Z]+_/, '')).toLowerCase().replace(/_/g, ' ');
}

// describeEvent is one line for an Event: the game's own notation where it has one. A game's
// event is either a oneof of typed arms (IceTraders, Planet, Full-Contact Catan) or one flat
// message with a kind (PanTropia).
export function describeEvent(e) {
  if (e.timed_out) return `seat ${e.timed_out.seat} timed out (${enumName(e.timed_out.policy, 'TIMEOUT_POLICY_')})`;
  const game = e.game && Object.values(e.game).find((v) => v && typeof v === 'object');
  if (!game) return '';
  let kind, body;
  if (typeof game.kind === 'string') {
    kind = enumName(game.kind, 'EVENT_KIND_');
    body = { ...game, kind: undefined };
  } else {
    const arm = Object.entries(game).find(([, v]) => v && typeof v === 'object' && !Array.isArray(v));
    if (!arm) return compact(game);
    [kind, body] = [arm[0].replace(/_/g, ' '), arm[1]];
  }
  if (body.notation) return `seat ${body.seat}: ${body.notation}${body.redacted ? ' (hidden)' : ''}`;
  if (typeof body.text === 'string' && body.text) return body.text;
  const seat = typeof body.seat === 'number' ? `seat ${body.seat} ` : '';
  const text = `${seat}${kind} ${compact({ ...body, seat: undefined })}`;
  return text.length > 140 ? `${text.slice(0, 137)}…` : text;
}

// compact is a short text of a message's non-zero fields.
export function compact(m) {
  if (m === null || m === undefined) return '';
  if (typeof m !== 'object') return String(m);
  if (Array.isArray(m)) return m.length ? `[${m.map(compact).join(', ')}]` : '';
  const parts = [];
  for (const [k, v] of Object.entries(m)) {
    if (v === undefined || v === 0 || v === false || v === '' || v === null || (Array.isArray(v) && !v.length)) continue;
    if (typeof v === 'string' && /_UNSPECIFIED$/.test(v)) continue;
    const c = typeof v === 'object' ? compact(v) : typeof v === 'string' ? enumName(v) : v;
    if (c === '' || c === '{}') continue;
    parts.push(`${k}=${typeof v === 'object' && !Array.isArray(v) ? `{${c}}` : c}`);
  }
  return parts.join(' ');
}

export function fmtTime(ts) {
  if (!ts) return '';
  const d = new Date(ts);
  return isNaN(d) ? '' : d.toLocaleTimeString();
}

// observationOf is the game message of an orrery.v1.Observation.
export function observationOf(o) { return o ? Object.values(o).find((v) => v && typeof v === 'object') : null; }

// seatLabel is "seat 2", with the seat's name when it has one of its own.
export function seatLabel(seat, names) {
  const n = names && names[seat];
  return n && n !== `seat ${seat}` ? `seat ${seat} (${n})` : `seat ${seat}`;
}
