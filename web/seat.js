// A person plays a seat (#/seat/TOKEN): the board from the seat's own decisions, the legal
// list turned into clicks on the board (choose.js), controls for what has no place on the
// board, the clock, the server's reasons for a rejected move, and the log. The token stays in
// the URL's fragment, which browsers never send to a server.
import { get, play } from './api.js';
import { h, seatColor, swatch, observationOf, namedSeats } from './common.js';
import { makeBoard, gameModule, gameCatalog } from './boards.js';
import { chooser } from './choose.js';
import { logView } from './log.js';
import { abortControl, forgetCreator } from './creator.js';

export async function seat(token, signal, onCleanup, { app, games }) {
  const boardEl = h('div', { class: 'board', id: 'board' });
  const clock = h('div', { class: 'clock', id: 'clock' });
  const info = h('div', { id: 'seatinfo' }, 'joining…');
  const prompt = h('div', { id: 'prompt', class: 'prompt' });
  const controls = h('div', { class: 'controls', id: 'controls' });
  const rejected = h('div', { class: 'rejected', id: 'rejected', role: 'alert' });
  const logEl = h('div', { class: 'log', id: 'log' });
  const turnPanel = h('div', { class: 'panel', id: 'yourmove' }, h('h2', {}, 'Your move'), prompt, controls, rejected);
  app.append(h('div', { class: 'grid' }, h('div', {}, boardEl),
    h('div', {}, h('div', { class: 'panel' }, info, clock), turnPanel, h('div', { class: 'panel' }, h('h2', {}, 'Log'), logEl))));

  let board = null, mod = null, cat = null, log = null;
  let joined = null, names = [];
  let decision = null, obs = null, choice = null;
  let extraFor = { id: '', el: null };
  let tick = 0;
  let lost = false;
  let live = null; // a game's own controller for real-time decisions (Full-Contact Catan)
  onCleanup(() => { clearInterval(tick); board && board.destroy(); live && live.destroy(); });

  const answer = (a) => { rejected.textContent = ''; conn.answer({ decision_id: decision.decision_id, ...a }); };

  // draw is the whole seat page as a function of the decision and the chooser's state.
  function draw() {
    if (!board) return;
    const marks = { selectable: new Map(), selected: [], preview: null };
    if (!live) controls.replaceChildren(); // a live controller keeps its own controls
    controls.dataset.decision = decision ? decision.decision_id : '';
    if (decision && choice && !live) {
      const nxt = choice.next();
      const rd = choice.ready();
      marks.selected = choice.prefix;
      for (const [key, e] of nxt) {
        if (mod.onBoard(key)) marks.selectable.set(key, e.label);
        else controls.append(h('button', { 'data-key': key, onclick: () => click(key) }, e.label));
      }
      if (rd) {
        marks.preview = rd.move;
        if (rd.variants.length > 1) {
          controls.append(h('button', { id: 'turnleft', title: '← previous', onclick: () => { choice.turn(-1); draw(); } }, '⟲'),
            h('span', { id: 'variant' }, `${rd.move.steps.length ? '' : ''}${rd.variant + 1} of ${rd.variants.length}`),
            h('button', { id: 'turnright', title: '→ next', onclick: () => { choice.turn(1); draw(); } }, '⟳'));
        }
        controls.append(h('button', { id: 'confirm', class: 'primary', onclick: confirm }, `✓ ${rd.move.text}`));
      }
      if (choice.prefix.length) controls.append(h('button', { id: 'cancel', title: 'Esc', onclick: () => { choice.reset(); draw(); } }, 'cancel'));
      // The game's own controls (a trade builder) live as long as the decision they answer.
      if (mod.controls && extraFor.id !== decision.decision_id) extraFor = { id: decision.decision_id, el: mod.controls(decision, obs, answer, names) };
      if (!choice.prefix.length && extraFor.el) controls.append(extraFor.el);
      prompt.textContent = mod.prompt ? mod.prompt(decision, obs, choice.prefix, nxt, rd) : '';
    } else if (!live) {
      prompt.textContent = lost ? '' : 'waiting for the others…';
    }
    if (live) board.update(obs, { ply: decision ? decision.ply : undefined, viewer: joined.seat, live: live.state });
    else board.update(obs, { ply: decision ? decision.ply : undefined, viewer: joined.seat, marks });
    boardEl.dataset.draws = Number(boardEl.dataset.draws || 0) + 1;
  }

  function confirm() {
    const rd = choice && choice.ready();
    if (!rd) return;
    answer({ legal_index: rd.move.index });
  }

  // click is a click on the board or a control. A click the legal list has no path for is
  // still sent when the game can say what it meant, so the server explains why it is illegal.
  function click(key) {
    if (!decision || !choice) return;
    const r = choice.click(key);
    if (r === 'miss') {
      const tried = mod.attempt && mod.attempt(choice.prefix, key, obs, joined.seat);
      choice.reset();
      if (tried) answer({ action: tried });
      else rejected.textContent = mod.describeKey ? `${mod.describeKey(key)}: nothing to do there now` : 'nothing to do there now';
    } else if (r === 'ready' && !mod.confirm && choice.ready().variants.length === 1) {
      confirm();
      return;
    } else if (r === 'step') {
      // One way on, through controls only: walk it (a click on a habitat to build an arcology).
      const nxt = choice.next();
      if (nxt.size === 1 && !choice.ready()) {
        const [k] = nxt.keys();
        if (!mod.onBoard(k) && nxt.get(k).moves.length === 1) { click(k); return; }
      }
    }
    draw();
  }

  const onKey = (ev) => {
    if (!choice || !decision || ev.target.tagName === 'INPUT') return;
    if (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') { choice.turn(ev.key === 'ArrowLeft' ? -1 : 1); draw(); ev.preventDefault(); }
    if (ev.key === 'Enter') { confirm(); ev.preventDefault(); }
    if (ev.key === 'Escape') { choice.back(); draw(); }
  };
  window.addEventListener('keydown', onKey);
  onCleanup(() => window.removeEventListener('keydown', onKey));

  const startClock = (deadline) => {
    clearInterval(tick);
    const end = new Date(deadline).getTime();
    const show = () => {
      const left = Math.max(0, end - Date.now());
      clock.textContent = `${(left / 1000).toFixed(1)} s`;
      clock.classList.toggle('low', left < 5000);
    };
    show();
    tick = setInterval(show, 100);
  };

  // Messages are handled one after another: the first (joined) loads the board.
  let chain = Promise.resolve();
  const handle = async (msg) => {
    if (msg.error) {
      decision = null;
      if (String(msg.error.code).toUpperCase() === 'ABORTED') {
        lost = true;
        boardEl.dataset.lost = 'true';
        document.getElementById('resign')?.remove();
        document.getElementById('abort')?.remove();
        info.append(h('div', { id: 'lostseat', class: 'error' }, 'This seat was opened in another tab or window, which plays it now. This page no longer does.'));
        turnPanel.remove();
      } else {
        info.append(h('div', { class: 'error' }, `${msg.error.code}: ${msg.error.message}`));
      }
      clearInterval(tick);
      clock.textContent = '';
      live && live.destroy();
      live = null;
      draw();
      return;
    }
    if (msg.joined) {
      joined = msg.joined;
      boardEl.dataset.game = joined.game;
      const [all, m] = await Promise.all([games(), get(`/v1/matches/${encodeURIComponent(joined.match_id)}`).catch(() => null)]);
      names = ((m && m.match.seat_info) || []).map((si) => si.name || `seat ${si.seat}`);
      if (!names.length) names = Array.from({ length: joined.seats }, (_, i) => `seat ${i}`);
      const mine = names[joined.seat];
      names[joined.seat] = mine === 'you' || mine === `seat ${joined.seat}` ? 'you' : `${mine} (you)`;
      // Resigning asks twice: a click, then a click on "really resign?" (until the pointer
      // leaves the button).
      const resign = h('button', { id: 'resign', onclick: () => {
        if (resign.dataset.armed) { conn.resign(); resign.disabled = true; return; }
        resign.dataset.armed = 'true';
        resign.textContent = 'really resign?';
      }, onmouseleave: () => { if (!resign.disabled) { delete resign.dataset.armed; resign.textContent = 'resign'; } } }, 'resign');
      // The match's creator, in the browser that made it, may also end it for everyone.
      const abort = abortControl(joined.match_id, (text) => { rejected.textContent = text; });
      info.replaceChildren(swatch(seatColor(joined.seat)), `you play seat ${joined.seat} of ${joined.seats} · ${joined.game} · `,
        h('a', { href: `#/match/${joined.match_id}` }, 'spectate'), ' ', resign, abort && ' ', abort);
      cat = all[joined.game].catalog;
      mod = await gameModule(joined.game);
      board = await makeBoard(joined.game, boardEl, cat, { seats: joined.seats, names, me: joined.seat, onKey: (k) => click(k) });
      log = logView(logEl, joined.game, names);
    }
    if (signal.aborted || !board) return;
    if (msg.decision) {
      decision = msg.decision;
      obs = observationOf(decision.observation);
      boardEl.dataset.ply = decision.ply;
      log.append(decision.events);
      if (mod.live && mod.live(obs)) {
        live ||= mod.controller({ board, boardEl, controls, prompt, names, seat: joined.seat, catalog: cat, joined });
        live.decision(decision, obs, (a) => conn.answer(a));
        choice = null;
      } else {
        live && live.destroy();
        live = null;
        choice = chooser(mod.moves(decision, obs, gameCatalog(cat)));
      }
      if (live) { clearInterval(tick); clock.textContent = `${(obs.time_left_ms / 1000).toFixed(1)} s of the round left`; } else startClock(decision.deadline);
      draw();
    }
    if (msg.accepted) {
      if (live) { live.accepted(msg.accepted); log.append(msg.accepted.events); return; }
      else { decision = null; choice = null; clearInterval(tick); clock.textContent = ''; }
      log.append(msg.accepted.events);
      draw();
    }
    if (msg.rejected) {
      rejected.textContent = `the server refused it: ${msg.rejected.reason}`;
      if (choice) { choice.reset(); draw(); }
    }
    if (msg.events) log.append(msg.events.events);
    if (msg.ended) {
      document.getElementById('resign')?.remove();
      document.getElementById('abort')?.remove();
      forgetCreator(msg.ended.match_id);
      decision = null;
      choice = null;
      live && live.destroy();
      live = null;
      clearInterval(tick);
      clock.textContent = '';
      const r = msg.ended.result;
      const aborted = r.reason === 'END_REASON_ABORTED';
      boardEl.dataset.reason = r.reason;
      turnPanel.replaceChildren(h('h2', {}, aborted ? 'The match was aborted' : 'The match is over'), h('div', { id: 'result' },
        aborted ? `no one won: ${r.detail || 'aborted'}` : `you ranked ${r.ranks[msg.ended.seat]} of ${r.ranks.length}${r.detail ? ` · ${namedSeats(r.detail, names)}` : ''}`),
        h('a', { href: `#/match/${msg.ended.match_id}` }, 'open the replay'));
      // The final board: the last position as this seat saw it.
      const id = encodeURIComponent(msg.ended.match_id);
      const m = await get(`/v1/matches/${id}`);
      const v = await get(`/v1/matches/${id}/view?ply=${m.match.ply}&viewer=VIEWER_SEAT&seat=${joined.seat}&max_events=1`);
      obs = observationOf(v.observation);
      boardEl.dataset.ended = 'true';
      draw();
    }
  };
  // Events come from the start on every join (events_seen 0), so a reload shows the whole log.
  let over = false;
  const conn = play(token, (msg) => { over ||= !!msg.ended; chain = chain.then(() => handle(msg)).catch((e) => console.warn(e)); },
    () => { if (!signal.aborted && !lost && !over) info.append(h('span', { class: 'dim', id: 'disconnected' }, ' (disconnected: reload to rejoin)')); }, { eventsSeen: 0 });
  onCleanup(() => conn.close());
}
