// The bot author's lab in the replay: each move's think time (as the server measured it),
// the answers rejected before it, a timeout, and the bot's own note; and a timing strip per
// seat over the match, a bar per decision, that jumps to its ply when clicked.
import { h, s, seatColor, seatLabel, enumName } from './common.js';

// seconds reads a protobuf Duration as the JSON gateway writes it ("0.012345s"); null if unset.
export function seconds(d) {
  if (d === undefined || d === null || d === '') return null;
  const v = parseFloat(d);
  return Number.isFinite(v) ? v : null;
}

// msText is a think time for people: "12.4 ms", "1.25 s".
export function msText(sec) { return sec >= 1 ? `${sec.toFixed(2)} s` : `${(sec * 1000).toFixed(1)} ms`; }

// moveLab is what the lab adds to a move's row in the list of moves (one line: the note is
// cut by the row's width and shown whole in moveDetail).
export function moveLab(st) {
  const out = [];
  const t = seconds(st.think_time);
  if (t !== null) out.push(h('span', { class: 'think' }, ` ${msText(t)}`));
  const rej = st.rejections || [];
  if (rej.length) {
    out.push(h('span', { class: 'rejections', title: rej.map((c) => enumName(c, 'REJECT_CODE_')).join(', ') }, ` ✗${rej.length}`));
  }
  if (st.note) out.push(h('span', { class: 'note', title: st.note }, ` “${st.note}”`));
  return out;
}

// moveDetail is the panel beside the board for the move at ply: who moved, the think time
// the server measured, the answers rejected before it, a timeout, and the bot's note whole.
export function moveDetail(st, ply, names) {
  if (!st) return [h('div', { class: 'dim' }, 'the start: no move yet')];
  const t = seconds(st.think_time);
  const rej = st.rejections || [];
  const out = [h('div', {}, `${ply}. ${st.seat >= 0 ? seatLabel(st.seat, names) : 'the clock'}: ${st.notation || 'tick'}`)];
  if (st.timed_out && st.timed_out !== 'TIMEOUT_POLICY_UNSPECIFIED') {
    out.push(h('div', { class: 'timeout' }, `the clock ran out; the ${enumName(st.timed_out, 'TIMEOUT_POLICY_')} policy chose`));
  } else if (t !== null) {
    out.push(h('div', { class: 'think', id: 'thinktime' }, `thought ${msText(t)}`));
  }
  if (rej.length) out.push(h('div', { class: 'rejections' }, `rejected first: ${rej.map((c) => enumName(c, 'REJECT_CODE_')).join(', ')}`));
  if (st.note) out.push(h('div', { class: 'note', id: 'note' }, st.note));
  return out;
}

// timingStrips draws one strip per seat: a bar per decision the seat made, its height the
// think time against the match's longest, red where the clock ran out, a mark above where
// answers were rejected. Clicking a bar calls go(ply).
export function timingStrips(steps, seats, names, go) {
  const W = 720, rowH = 44, pad = 4, left = 110;
  const n = Math.max(1, steps.length);
  const longest = Math.max(1e-6, ...steps.map((st) => seconds(st.think_time) || 0));
  const svg = s('svg', { class: 'plot timing', id: 'timing', viewBox: `0 0 ${W} ${seats * rowH + 16}`, width: W, height: seats * rowH + 16 });
  const x = (i) => left + (i / n) * (W - left - pad);
  const bw = Math.max(1, (W - left - pad) / n - 0.5);
  for (let seat = 0; seat < seats; seat++) {
    const y0 = seat * rowH;
    const base = y0 + rowH - pad;
    const row = s('g', { class: 'strip', 'data-seat': seat });
    row.append(s('text', { x: 2, y: y0 + rowH / 2 + 4, style: `fill:${seatColor(seat)}` }, seatLabel(seat, names)),
      s('line', { x1: left, y1: base, x2: W - pad, y2: base, stroke: '#3a4358' }));
    steps.forEach((st, i) => {
      if (st.seat !== seat) return;
      const t = seconds(st.think_time);
      const out = st.timed_out && st.timed_out !== 'TIMEOUT_POLICY_UNSPECIFIED';
      const hgt = out ? rowH - 2 * pad - 6 : Math.max(1, ((t || 0) / longest) * (rowH - 2 * pad - 6));
      const rej = (st.rejections || []).length;
      const title = `ply ${i + 1}: ${st.notation || ''}${t !== null ? `, ${msText(t)}` : ''}${out ? ', timed out' : ''}${rej ? `, ${rej} rejected` : ''}${st.note ? `\n${st.note}` : ''}`;
      const bar = s('rect', {
        class: out ? 'bar timeout' : 'bar', 'data-ply': i + 1, x: x(i), y: base - hgt, width: bw, height: hgt,
        fill: out ? '#ff4d4d' : seatColor(seat),
      }, s('title', {}, title));
      row.append(bar);
      if (rej) row.append(s('circle', { class: 'rejected', cx: x(i) + bw / 2, cy: y0 + pad + 2, r: 2.5, fill: '#ffcc00' }));
    });
    svg.append(row);
  }
  svg.append(s('text', { x: left, y: seats * rowH + 12 }, `think time, longest ${msText(longest)}; red: timed out; yellow: answers rejected`));
  // One listener for every bar: a match of thousands of plies draws thousands of bars.
  svg.addEventListener('click', (ev) => {
    const ply = Number(ev.target?.dataset?.ply);
    if (ply > 0) go(ply);
  });
  return svg;
}
