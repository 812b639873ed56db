// A finished match as a replay, as Lichess shows one: a scrubber over the whole match, ←/→ to
// step, space to play and pause, Home/End, a URL that holds the ply (#/match/ID?ply=N), the
// last move marked on the board and in the move list, playback that keeps up at any speed, a
// move list that stays light for matches of thousands of plies, and the replay to download.
// Views come from ViewService, which keeps checkpoints of each match (service/view), and are
// cached here: stepping back shows a view already seen at once.
import { get } from './api.js';
import { h, seatLabel, observationOf, resultText, enumName, namedSeats } from './common.js';
import { makeBoard } from './boards.js';
import { logView } from './log.js';
import { moveLab, moveDetail, timingStrips } from './timing.js';

const rowHeight = 20; // px, the move list's fixed row height (its rows are drawn as they scroll)
const speeds = [1, 2, 4, 10, 30, 100, 300];

export async function replay(m, catalog, signal, onCleanup, { names, layout }) {
  const id = encodeURIComponent(m.match_id);
  const rep = await get(`/v1/matches/${id}/replay`);
  const { boardEl, side, log, below } = layout(m, 'Replay');
  const board = await makeBoard(m.game, boardEl, catalog.catalog, { seats: m.seats, names });
  onCleanup(() => board.destroy());
  const lines = logView(log, m.game, names, { keep: 200 });
  const steps = rep.steps;
  const plies = steps.length;
  const fromURL = Number(new URLSearchParams(location.hash.split('?')[1] || '').get('ply'));
  let ply = Number.isFinite(fromURL) && location.hash.includes('ply=') ? Math.max(0, Math.min(plies, fromURL)) : plies;
  let viewer = 'VIEWER_UNSPECIFIED:0';
  let speed = 10;
  let playing = null; // {t0, from}: playback started at time t0 from ply from
  let drawn = -1, inflight = null;
  const cache = new Map(); // `${viewer}/${ply}` -> view, the most recent last

  const plyLabel = h('span', { id: 'plylabel', class: 'plylabel' });
  const scrub = h('input', { id: 'scrub', type: 'range', min: 0, max: plies, value: ply, step: 1, 'aria-label': 'ply' });
  scrub.addEventListener('input', () => { pause(); go(Number(scrub.value)); });
  const viewSel = h('select', { id: 'viewer', onchange: () => { viewer = viewSel.value; drawn = -1; want(); } },
    h('option', { value: 'VIEWER_UNSPECIFIED:0' }, 'spectator'),
    h('option', { value: 'VIEWER_OMNISCIENT:0' }, 'everything'),
    names.map((n, i) => h('option', { value: `VIEWER_SEAT:${i}` }, seatLabel(i, names))));
  const speedSel = h('select', { id: 'speed', onchange: () => { speed = Number(speedSel.value); if (playing) start(); } },
    speeds.map((v) => h('option', { value: v, selected: v === speed }, `${v} plies/s`)));
  const playBtn = h('button', { id: 'playpause', title: 'space', onclick: () => (playing ? pause() : start()) }, '▶ play');
  const jump = h('input', { id: 'jump', type: 'number', min: 0, max: plies, value: ply, style: 'width:6em', 'aria-label': 'go to ply' });
  below.append(h('div', { class: 'controls replay' },
    h('button', { id: 'first', title: 'Home', onclick: () => { pause(); go(0); } }, '|◀'),
    h('button', { id: 'back', title: '←', onclick: () => { pause(); go(ply - 1); } }, '◀'),
    playBtn,
    h('button', { id: 'forward', title: '→', onclick: () => { pause(); go(ply + 1); } }, '▶'),
    h('button', { id: 'last', title: 'End', onclick: () => { pause(); go(plies); } }, '▶|'),
    speedSel, plyLabel, 'view as', viewSel,
    'ply', jump, h('button', { id: 'jumpgo', onclick: () => { pause(); go(Number(jump.value)); } }, 'go'),
    h('a', { id: 'download', href: `/v1/matches/${id}/replay`, download: `orrery-${m.match_id}.json` }, 'download')),
    scrub);

  // The move list draws only the rows in sight: a 6,000-ply match keeps a few dozen nodes.
  const rows = h('div', { class: 'rows' });
  const spacer = h('div', { style: `height:${plies * rowHeight}px;position:relative` }, rows);
  const moveList = h('div', { class: 'log movelist', id: 'steps' }, spacer);
  const stepText = (i) => {
    const st = steps[i];
    const who = st.seat >= 0 ? seatLabel(st.seat, names) : 'the clock';
    return `${i + 1}. ${who}: ${st.notation || 'tick'}${st.timed_out !== 'TIMEOUT_POLICY_UNSPECIFIED' ? ` (timed out, ${enumName(st.timed_out, 'TIMEOUT_POLICY_')})` : ''}`;
  };
  const drawRows = () => {
    const top = Math.floor(moveList.scrollTop / rowHeight);
    const n = Math.ceil((moveList.clientHeight || 420) / rowHeight) + 2;
    const out = [];
    for (let i = Math.max(0, top - 2); i < Math.min(plies, top + n); i++) {
      out.push(h('div', { class: i + 1 === ply ? 'current' : null, 'data-ply': i + 1, style: `top:${i * rowHeight}px`, onclick: () => { pause(); go(i + 1); } }, stepText(i), moveLab(steps[i])));
    }
    rows.replaceChildren(...out);
  };
  moveList.addEventListener('scroll', drawRows);
  const aborted = m.result && m.result.reason === 'END_REASON_ABORTED';
  side.prepend(h('div', { class: 'panel', id: 'result' }, resultText(m),
    !aborted && m.result && m.result.detail ? h('div', { id: 'resultdetail' }, namedSeats(m.result.detail, names)) : null,
    h('div', { class: 'dim' }, `seed ${rep.seed} · ${plies} plies`)),
    h('div', { class: 'panel' }, h('h2', {}, 'Moves'), moveList));
  const detail = h('div', { class: 'movelab', id: 'movelab' });
  side.prepend(h('div', { class: 'panel' }, h('h2', {}, 'This move'), detail));
  below.append(h('div', { class: 'panel' }, h('h2', {}, 'Think time'), timingStrips(steps, m.seats, names, (p) => { pause(); go(p); })));

  const onKey = (ev) => {
    if (ev.target.tagName === 'INPUT' && ev.target.type !== 'range') return;
    if (ev.target.tagName === 'SELECT') return;
    const keys = { ArrowLeft: () => { pause(); go(ply - 1); }, ArrowRight: () => { pause(); go(ply + 1); }, Home: () => { pause(); go(0); }, End: () => { pause(); go(plies); }, ' ': () => (playing ? pause() : start()) };
    if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
  };
  window.addEventListener('keydown', onKey);
  onCleanup(() => window.removeEventListener('keydown', onKey));

  // go moves the replay's ply; the board follows as soon as its view is here.
  function go(p) {
    ply = Math.max(0, Math.min(plies, Math.round(p)));
    scrub.value = ply;
    jump.value = ply;
    boardEl.dataset.target = ply;
    setURL();
    const cur = moveList.querySelector('.current');
    if (cur) cur.classList.remove('current');
    const top = (ply - 1) * rowHeight;
    if (top < moveList.scrollTop || top > moveList.scrollTop + moveList.clientHeight - rowHeight) moveList.scrollTop = Math.max(0, top - moveList.clientHeight / 2);
    drawRows();
    detail.replaceChildren(...moveDetail(steps[ply - 1], ply, names));
    want();
  }

  // The URL holds the ply, written at most four times a second (browsers throttle history).
  let urlTimer = 0;
  function setURL() {
    if (urlTimer) return;
    urlTimer = setTimeout(() => { urlTimer = 0; history.replaceState(null, '', `#/match/${m.match_id}?ply=${ply}`); }, playing ? 250 : 0);
  }
  onCleanup(() => clearTimeout(urlTimer));

  // Playback moves the ply by the clock, not by answers: at any speed the board shows the
  // latest view it has, and asks for the ply it should be at whenever it has drawn one.
  let frame = 0;
  function start() {
    if (ply >= plies) go(0);
    playing = { t0: performance.now(), from: ply };
    playBtn.textContent = '❚❚ pause';
    cancelAnimationFrame(frame);
    const stepFrame = (now) => {
      if (!playing) return;
      const p = Math.min(plies, playing.from + Math.floor(((now - playing.t0) / 1000) * speed));
      if (p !== ply) go(p);
      if (p >= plies) { pause(); return; }
      frame = requestAnimationFrame(stepFrame);
    };
    frame = requestAnimationFrame(stepFrame);
  }
  function pause() {
    playing = null;
    cancelAnimationFrame(frame);
    playBtn.textContent = '▶ play';
    setURL();
  }
  onCleanup(pause);

  // want fetches the view of the current ply unless one is on its way: its answer draws and
  // asks again if the ply has moved on meanwhile, so no answer is wasted and none waits.
  async function want() {
    if (inflight) return;
    while (!signal.aborted) {
      const p = ply, v = viewer;
      const key = `${v}/${p}`;
      if (drawn === p && boardEl.dataset.viewer === v) return;
      let view = cache.get(key);
      if (!view) {
        const [kind, s] = v.split(':');
        inflight = get(`/v1/matches/${id}/view?ply=${p}&viewer=${kind}&seat=${s}&max_events=${playing ? 30 : 120}`);
        try { view = await inflight; } finally { inflight = null; }
        if (signal.aborted) return;
        cache.set(key, view);
        if (cache.size > 3000) cache.delete(cache.keys().next().value);
      }
      show(view, p, v);
    }
  }

  function show(view, p, v) {
    const [kind, s] = v.split(':');
    board.update(observationOf(view.observation), { ply: p, viewer: kind === 'VIEWER_SEAT' ? Number(s) : -1, last: p > 0 ? steps[p - 1].action : null, lastSeat: p > 0 ? steps[p - 1].seat : -1 });
    drawn = p;
    boardEl.dataset.ply = p;
    boardEl.dataset.viewer = v;
    plyLabel.textContent = `${p} / ${plies}`;
    lines.clear();
    lines.append(view.events);
  }

  go(ply);
}
