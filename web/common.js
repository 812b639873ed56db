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

// namedSeats is the server's text (a result's detail) with each "seat N" named as the panel
// names it: "seat 2 (house-greedy)".
export function namedSeats(text, names) {
  return String(text || '').replace(/\bseat (\d+)\b/g, (_, n) => seatLabel(Number(n), names));
}

// resultText is who won a finished match and why.
export function resultText(m) {
  const r = m.result;
  if (r && r.reason === 'END_REASON_ABORTED') return r.detail || 'aborted';
  if (!r || !r.ranks || !r.ranks.length) return '';
  const names = (m.seat_info || []).map((si) => si.name || `seat ${si.seat}`);
  const won = r.ranks.map((rk, i) => (rk === 1 ? names[i] || `seat ${i}` : null)).filter(Boolean);
  return `${won.join(', ')} won (${enumName(r.reason, 'END_REASON_')})`;
}
