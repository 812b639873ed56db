// The arena's pages, routed by the URL's fragment: #/ (home), #/match/ID (live or replay),
// #/seat/TOKEN (a person plays a seat; the token stays in the fragment, which browsers never
// send to a server), #/standings, #/tournament/ID.
import { get, post, stream, play } from './api.js';
import { h, seatColor, seatLabel, swatch, describeEvent, enumName, fmtTime, observationOf } from './common.js';
import { makeBoard } from './boards.js';
import { ratingPlot } from './plot.js';
import { moveLab, timingStrips } from './timing.js';

const app = document.getElementById('app');
let cleanup = () => {};

let gamesPromise;
function games() {
  gamesPromise ||= get('/v1/games').then((r) => Object.fromEntries(r.games.map((g) => [g.name, g])));
  return gamesPromise;
}

function route() {
  cleanup();
  cleanup = () => {};
  const parts = location.hash.replace(/^#\/?/, '').split('/');
  const page = { '': home, match, seat, standings, tournament }[parts[0]] || home;
  app.replaceChildren();
  const ctl = new AbortController();
  const extra = [];
  cleanup = () => { ctl.abort(); extra.forEach((f) => f()); };
  page(decodeURIComponent(parts.slice(1).join('/')), ctl.signal, (f) => extra.push(f)).catch((err) => {
    if (!ctl.signal.aborted) app.append(h('p', { class: 'error' }, String(err.message || err)));
  });
}
window.addEventListener('hashchange', route);
route();

// every runs f now and then every ms until the page changes.
function every(ms, f, onCleanup) {
  let t = 0;
  const tick = async () => { try { await f(); } catch (e) { console.warn(e); } t = setTimeout(tick, ms); };
  tick();
  onCleanup(() => clearTimeout(t));
}

function seatNames(m) {
  return h('span', { class: 'seats' }, (m.seat_info || []).map((si) => h('span', {}, swatch(seatColor(si.seat)), si.name || `seat ${si.seat}`)));
}

function resultText(m) {
  const r = m.result;
  if (!r || !r.ranks || !r.ranks.length) return '';
  const names = (m.seat_info || []).map((si) => si.name || `seat ${si.seat}`);
  const won = r.ranks.map((rk, i) => (rk === 1 ? names[i] || `seat ${i}` : null)).filter(Boolean);
  return `${won.join(', ')} won (${enumName(r.reason, 'END_REASON_')})`;
}

// Home: live matches, recent finished ones, and each game's leaderboard.
async function home(_, signal, onCleanup) {
  const live = h('tbody', { id: 'live' });
  const recent = h('tbody', { id: 'recent' });
  const boards = h('div', { id: 'leaderboards', class: 'stats' });
  const tournaments = h('tbody', { id: 'tournaments' });
  app.append(
    h('div', { class: 'panel' }, h('h2', {}, 'Live matches'),
      h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'game'), h('th', {}, 'seats'), h('th', {}, 'ply'), h('th', {}, 'started'), h('th', {}))), live)),
    h('div', { class: 'panel' }, h('h2', {}, 'Recently finished'),
      h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'game'), h('th', {}, 'seats'), h('th', {}, 'result'), h('th', {}, 'plies'), h('th', {}))), recent)),
    h('div', { class: 'panel' }, h('h2', {}, 'Leaderboards'), boards),
    h('div', { class: 'panel' }, h('h2', {}, 'Tournaments'),
      h('table', {}, h('thead', {}, h('tr', {}, ['game', 'format', 'entrants', 'progress', 'leader', ''].map((c) => h('th', {}, c)))), tournaments)),
    await newMatchPanel());
  every(2000, async () => {
    const [l, f] = await Promise.all([
      get('/v1/matches?status=MATCH_STATUS_RUNNING&page_size=30'),
      get('/v1/matches?status=MATCH_STATUS_FINISHED&page_size=15'),
    ]);
    if (signal.aborted) return;
    live.replaceChildren(...(l.matches.length ? l.matches.map((m) => h('tr', { class: 'match', 'data-match': m.match_id, 'data-game': m.game },
      h('td', {}, m.game), h('td', {}, seatNames(m)), h('td', {}, m.ply), h('td', {}, fmtTime(m.created)),
      h('td', {}, h('a', { href: `#/match/${m.match_id}` }, 'watch')))) : [h('tr', {}, h('td', { colspan: 5, class: 'dim' }, 'no match is running'))]));
    recent.replaceChildren(...f.matches.map((m) => h('tr', { class: 'match', 'data-match': m.match_id },
      h('td', {}, m.game), h('td', {}, seatNames(m)), h('td', {}, resultText(m)), h('td', {}, m.ply),
      h('td', {}, h('a', { href: `#/match/${m.match_id}` }, 'replay')))));
  }, onCleanup);
  every(10000, async () => {
    const lb = await get('/v1/leaderboard?page_size=5');
    if (signal.aborted) return;
    boards.replaceChildren(...leaderboardTables(lb.entries));
  }, onCleanup);
  every(5000, async () => {
    const { tournaments: ts = [] } = await get('/v1/tournaments?page_size=10');
    if (signal.aborted) return;
    tournaments.replaceChildren(...(ts.length ? ts.map((t) => h('tr', { class: 'tournament', 'data-tournament': t.tournament_id },
      h('td', {}, t.game), h('td', {}, tournamentFormat(t)), h('td', {}, (t.entrants || []).join(', ')),
      h('td', {}, tournamentProgress(t)), h('td', {}, t.standings?.[0]?.entrant || ''),
      h('td', {}, h('a', { href: `#/tournament/${t.tournament_id}` }, 'standings')))) : [h('tr', {}, h('td', { colspan: 6, class: 'dim' }, 'no tournament yet'))]));
  }, onCleanup);
}

function tournamentFormat(t) {
  return `${enumName(t.format, 'TOURNAMENT_FORMAT_')}${t.duplicate ? ', duplicate' : ''}${t.recorded ? ', recorded' : ''}`;
}

// tournamentProgress is how far a tournament has gone: recorded ones only say when they ended.
function tournamentProgress(t) {
  if (t.recorded) return `${t.matches_total || (t.match_ids || []).length} matches`;
  const state = t.finished ? `finished ${fmtTime(t.finished)}` : `${t.matches_running || 0} running`;
  return `${t.matches_ended || 0} of ${t.matches_total || 0} matches, ${state}`;
}

// newMatchPanel creates a match (POST /v1/matches) and shows a link per seat: open one to play
// that seat yourself, send the others to friends or give their tokens to bots (orrery join).
async function newMatchPanel() {
  const all = await games();
  const game = h('select', { id: 'newgame' }, Object.values(all).map((g) => h('option', { value: g.name }, g.title || g.name)));
  const seats = h('input', { id: 'newseats', type: 'number', min: 1, max: 6, value: 2, style: 'width:4em' });
  const out = h('div', { id: 'newmatch' });
  const sync = () => { const g = all[game.value]; seats.min = g.min_seats; seats.max = g.max_seats; seats.value = Math.min(Math.max(Number(seats.value), g.min_seats), g.max_seats); };
  game.addEventListener('change', sync);
  sync();
  const create = async () => {
    out.replaceChildren('creating…');
    try {
      const r = await post('/v1/matches', { game: game.value, seats: Number(seats.value), clock: { per_move: '60s', time_bank: '300s' } });
      out.replaceChildren(h('div', {}, 'match ', h('a', { href: `#/match/${r.match_id}` }, r.match_id), ' · keep these links secret: each plays its seat'),
        ...r.seats.map((st) => h('div', {}, swatch(seatColor(st.seat)), h('a', { href: `#/seat/${st.token}`, class: 'seatlink', 'data-seat': st.seat }, `play seat ${st.seat}`))));
    } catch (err) {
      out.replaceChildren(h('span', { class: 'error' }, err.message));
    }
  };
  return h('div', { class: 'panel' }, h('h2', {}, 'New match'),
    h('div', { class: 'controls' }, game, 'seats', seats, h('button', { id: 'create', onclick: create }, 'create'),
      h('span', { class: 'dim' }, 'a minute per move and five in the bank')), out);
}

function leaderboardTables(entries) {
  const byGame = {};
  for (const e of entries) (byGame[e.game] ||= []).push(e);
  return Object.entries(byGame).map(([game, es]) => h('div', { 'data-game': game },
    h('h2', {}, h('a', { href: `#/standings/${game}` }, game)),
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'bot'), h('th', {}, 'score'), h('th', {}, 'games'), h('th', {}, 'wins'))),
      h('tbody', {}, es.map((e) => h('tr', {}, h('td', {}, e.rank), h('td', {}, e.bot), h('td', {}, e.score.toFixed(2)), h('td', {}, e.games), h('td', {}, e.wins)))))));
}

// A match: live through Watch while it runs, then as a replay.
async function match(id, signal, onCleanup) {
  const { match: m } = await get(`/v1/matches/${encodeURIComponent(id)}`);
  const catalog = (await games())[m.game];
  if (m.status === 'MATCH_STATUS_FINISHED') return replay(m, catalog, signal, onCleanup);
  return live(m, catalog, signal, onCleanup);
}

function layout(m, title) {
  const boardEl = h('div', { class: 'board', id: 'board', 'data-game': m.game });
  const side = h('div', { id: 'side' });
  const log = h('div', { class: 'log', id: 'log' });
  app.append(h('h2', {}, `${title} · ${m.game} `, seatNames(m)),
    h('div', { class: 'grid' }, h('div', {}, boardEl, h('div', { id: 'below' })), h('div', {}, side, h('div', { class: 'panel' }, h('h2', {}, 'Log'), log))));
  return { boardEl, side, log, below: document.getElementById('below') };
}

function appendLog(log, events) {
  for (const e of events) log.append(h('div', { 'data-seq': e.seq }, `${e.seq} ${describeEvent(e)}`));
  while (log.childElementCount > 400) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

async function live(m, catalog, signal, onCleanup) {
  const { boardEl, side, log } = layout(m, 'Live');
  const board = await makeBoard(m.game, boardEl, catalog.catalog, { seats: m.seats, names: names(m) });
  onCleanup(() => board.destroy());
  const status = h('div', { class: 'panel', id: 'status' }, 'watching…');
  side.prepend(status);
  await stream(`/v1/matches/${encodeURIComponent(m.match_id)}/watch`, (msg) => {
    if (msg.view) {
      board.update(observationOf(msg.view.observation), { ply: msg.view.ply });
      boardEl.dataset.ply = msg.view.ply;
      status.textContent = `ply ${msg.view.ply}`;
    }
    if (msg.events) appendLog(log, msg.events.events);
    if (msg.ended) {
      boardEl.dataset.ended = 'true';
      status.replaceChildren(h('div', { id: 'result' }, resultText({ ...m, result: msg.ended.result })),
        h('button', { id: 'toreplay', onclick: () => route() }, 'Open the replay'));
    }
  }, signal);
}

function names(m) { return (m.seat_info || []).map((si) => si.name || `seat ${si.seat}`); }

// A finished match as a replay: any ply, as any seat, a spectator, or everyone saw it.
async function replay(m, catalog, signal, onCleanup) {
  const rep = await get(`/v1/matches/${encodeURIComponent(m.match_id)}/replay`);
  const { boardEl, side, log, below } = layout(m, 'Replay');
  const board = await makeBoard(m.game, boardEl, catalog.catalog, { seats: m.seats, names: names(m) });
  onCleanup(() => board.destroy());
  const plies = rep.steps.length;
  let ply = Number(new URLSearchParams(location.hash.split('?')[1] || '').get('ply') || plies);
  let viewer = 'VIEWER_UNSPECIFIED:0';
  let playing = null;
  let speed = 4;
  let seq = 0;

  const plyLabel = h('span', { id: 'plylabel' });
  const jump = h('input', { id: 'jump', type: 'number', min: 0, max: plies, value: ply, style: 'width:6em' });
  const viewSel = h('select', { id: 'viewer', onchange: () => { viewer = viewSel.value; show(); } },
    h('option', { value: 'VIEWER_UNSPECIFIED:0' }, 'spectator'),
    h('option', { value: 'VIEWER_OMNISCIENT:0' }, 'everything'),
    names(m).map((n, i) => h('option', { value: `VIEWER_SEAT:${i}` }, seatLabel(i, names(m)))));
  const speedSel = h('select', { id: 'speed', onchange: () => { speed = Number(speedSel.value); if (playing) { pause(); start(); } } },
    [1, 2, 4, 10, 30, 100].map((v) => h('option', { value: v, selected: v === speed }, `${v} plies/s`)));
  const playBtn = h('button', { id: 'playpause', onclick: () => (playing ? pause() : start()) }, '▶ play');
  below.append(h('div', { class: 'controls' },
    h('button', { id: 'first', onclick: () => go(0) }, '|◀ start'),
    h('button', { id: 'back', onclick: () => go(ply - 1) }, '◀ back'),
    playBtn,
    h('button', { id: 'forward', onclick: () => go(ply + 1) }, 'forward ▶'),
    h('button', { id: 'last', onclick: () => go(plies) }, 'end ▶|'),
    speedSel, 'ply', jump, h('button', { id: 'jumpgo', onclick: () => go(Number(jump.value)) }, 'go'), plyLabel, 'view as', viewSel));
  const result = h('div', { class: 'panel', id: 'result' }, resultText(m), h('div', { class: 'dim' }, `seed ${rep.seed}`));
  const steps = h('div', { class: 'log', id: 'steps' }, rep.steps.map((st, i) => h('div', { 'data-ply': i + 1, onclick: () => go(i + 1) }, `${i + 1}. ${st.seat >= 0 ? `seat ${st.seat}` : 'clock'}: ${st.notation || 'tick'}`, moveLab(st))));
  side.prepend(result, h('div', { class: 'panel' }, h('h2', {}, 'Moves'), steps));
  below.append(h('div', { class: 'panel' }, h('h2', {}, 'Think time'), timingStrips(rep.steps, m.seats, names(m), go)));

  function go(p) { ply = Math.max(0, Math.min(plies, p)); show(); }
  function start() {
    if (ply >= plies) ply = 0;
    playBtn.textContent = '❚❚ pause';
    playing = setInterval(() => { if (ply >= plies) pause(); else go(ply + 1); }, 1000 / speed);
  }
  function pause() { clearInterval(playing); playing = null; playBtn.textContent = '▶ play'; }
  onCleanup(pause);

  async function show() {
    const mine = ++seq;
    const [kind, seat] = viewer.split(':');
    jump.value = ply;
    plyLabel.textContent = `${ply} / ${plies}`;
    const v = await get(`/v1/matches/${encodeURIComponent(m.match_id)}/view?ply=${ply}&viewer=${kind}&seat=${seat}&max_events=150`);
    if (mine !== seq || signal.aborted) return; // a later request has the say
    board.update(observationOf(v.observation), { ply: v.ply, viewer: kind === 'VIEWER_SEAT' ? Number(seat) : -1 });
    boardEl.dataset.ply = v.ply;
    boardEl.dataset.viewer = viewer;
    log.replaceChildren();
    appendLog(log, v.events);
    for (const d of steps.querySelectorAll('.current')) d.classList.remove('current');
    const cur = steps.querySelector(`[data-ply="${ply}"]`);
    if (cur) { cur.classList.add('current'); cur.scrollIntoView({ block: 'nearest' }); }
  }
  await show();
}

// A person plays a seat: the board from its decisions, the legal actions as buttons, the clock.
async function seat(token, signal, onCleanup) {
  const boardEl = h('div', { class: 'board', id: 'board' });
  const legal = h('div', { class: 'legal', id: 'legal' });
  const clock = h('div', { class: 'clock', id: 'clock' });
  const info = h('div', { id: 'seatinfo' }, 'joining…');
  const rejected = h('div', { class: 'rejected', id: 'rejected' });
  const log = h('div', { class: 'log', id: 'log' });
  const filter = h('div', { class: 'dim', id: 'filter' });
  app.append(h('div', { class: 'grid' }, h('div', {}, boardEl),
    h('div', {}, h('div', { class: 'panel' }, info, clock, rejected), h('div', { class: 'panel' }, h('h2', {}, 'Your move'), filter, legal),
      h('div', { class: 'panel' }, h('h2', {}, 'Log'), log))));
  let board = null;
  let decision = null;
  let tick = 0;
  let picked = '';
  onCleanup(() => { clearInterval(tick); board && board.destroy(); });

  const showLegal = () => {
    legal.replaceChildren();
    legal.dataset.decision = decision ? decision.decision_id : '';
    if (!decision) return;
    const re = picked ? new RegExp(`\\b${picked}\\b`) : null;
    filter.textContent = picked ? `showing actions with ${picked} (click the board again to clear)` : '';
    decision.legal_notation.forEach((n, i) => {
      if (re && !re.test(n)) return;
      legal.append(h('button', { 'data-index': i, onclick: () => { rejected.textContent = ''; conn.answer({ decision_id: decision.decision_id, legal_index: i }); } }, n));
    });
  };
  const conn = play(token, async (msg) => {
    if (msg.error) { info.replaceChildren(h('span', { class: 'error' }, `${msg.error.code}: ${msg.error.message}`)); return; }
    if (msg.joined) {
      const j = msg.joined;
      info.replaceChildren(swatch(seatColor(j.seat)), `seat ${j.seat} of ${j.seats} · ${j.game} · `, h('a', { href: `#/match/${j.match_id}` }, 'spectate'));
      boardEl.dataset.game = j.game;
      const cat = (await games())[j.game];
      board = await makeBoard(j.game, boardEl, cat.catalog, { seats: j.seats, names: [], onPick: (token) => { picked = picked === token ? '' : token; showLegal(); } });
    }
    if (msg.decision) {
      decision = msg.decision;
      while (!board) await new Promise((r) => setTimeout(r, 20));
      board.update(observationOf(decision.observation), { ply: decision.ply, viewer: decision.seat });
      boardEl.dataset.ply = decision.ply;
      appendLog(log, decision.events);
      picked = '';
      showLegal();
      clearInterval(tick);
      const deadline = new Date(decision.deadline).getTime();
      const draw = () => {
        const left = Math.max(0, deadline - Date.now());
        clock.textContent = `${(left / 1000).toFixed(1)} s`;
        clock.classList.toggle('low', left < 5000);
      };
      draw();
      tick = setInterval(draw, 100);
    }
    if (msg.accepted) { decision = null; legal.dataset.decision = ''; legal.replaceChildren(h('span', { class: 'dim' }, `played ${msg.accepted.notation}; waiting…`)); clearInterval(tick); clock.textContent = ''; appendLog(log, msg.accepted.events); }
    if (msg.rejected) rejected.textContent = `rejected: ${msg.rejected.reason}`;
    if (msg.events) appendLog(log, msg.events.events);
    if (msg.ended) {
      decision = null;
      clearInterval(tick);
      clock.textContent = '';
      const r = msg.ended.result;
      legal.replaceChildren(h('div', { id: 'result' }, `the match is over: you (seat ${msg.ended.seat}) ranked ${r.ranks[msg.ended.seat]} of ${r.ranks.length} · ${r.detail}`));
    }
  }, () => { if (!signal.aborted) info.append(h('span', { class: 'dim' }, ' (disconnected)')); });
  onCleanup(() => conn.close());
}

// Standings: each game's leaderboard, and its top bots' ratings over time.
async function standings(game, signal, onCleanup) {
  const all = Object.keys(await games());
  const sel = game || all[0];
  app.append(h('div', { class: 'controls' }, all.map((g) => h('a', { href: `#/standings/${g}`, style: g === sel ? 'font-weight:bold' : '' }, g))));
  const table = h('div', { id: 'standings' });
  const plot = h('div', { id: 'ratingplot' });
  app.append(h('div', { class: 'panel' }, h('h2', {}, `${sel}: leaderboard`), table), h('div', { class: 'panel' }, h('h2', {}, 'Conservative rating (mu - 3 sigma) over rated matches'), plot));
  every(5000, async () => {
    const lb = await get(`/v1/leaderboard?game=${encodeURIComponent(sel)}&page_size=50`);
    if (signal.aborted) return;
    table.replaceChildren(...leaderboardTables(lb.entries));
    const top = lb.entries.slice(0, 6);
    const series = await Promise.all(top.map(async (e) => {
      const b = await get(`/v1/bots/${encodeURIComponent(e.bot)}?recent_matches=500`);
      const pts = b.recent.filter((r) => r.game === sel).reverse().map((r, i) => ({ x: i, t: r.rated, y: r.mu_after - 3 * r.sigma_after }));
      return { name: e.bot, points: pts };
    }));
    if (!signal.aborted) plot.replaceChildren(ratingPlot(series));
  }, onCleanup);
}

// A tournament's progress and standings, refreshed while it runs.
async function tournament(id, signal, onCleanup) {
  const box = h('div', { id: 'tournament' });
  app.append(box);
  every(3000, async () => {
    const { tournament: t } = await get(`/v1/tournaments/${encodeURIComponent(id)}`);
    if (signal.aborted) return;
    box.replaceChildren(h('h2', {}, `Tournament ${t.tournament_id} · ${t.game} · ${tournamentFormat(t)}`),
      h('p', { id: 'progress' }, tournamentProgress(t)),
      h('table', {}, h('thead', {}, h('tr', {}, ['place', 'entrant', 'matches', 'wins', 'win rate (95%)', 'win share (95%)', 'mean rank', 'points'].map((c) => h('th', {}, c)))),
        h('tbody', {}, t.standings.map((s) => h('tr', {}, h('td', {}, s.place), h('td', {}, s.entrant), h('td', {}, s.matches), h('td', {}, s.wins),
          h('td', {}, `${(s.win_rate * 100).toFixed(1)}% (${(s.win_rate_low * 100).toFixed(0)}–${(s.win_rate_high * 100).toFixed(0)})`),
          h('td', { title: 'a first place shared by k seats counts 1/k' }, `${((s.win_share ?? 0) * 100).toFixed(1)}% (${((s.win_share_low ?? 0) * 100).toFixed(0)}–${((s.win_share_high ?? 1) * 100).toFixed(0)})`),
          h('td', {}, `${s.mean_rank.toFixed(2)} ± ${s.mean_rank_ci.toFixed(2)}`), h('td', {}, s.points.toFixed(3)))))),
      h('h2', {}, 'Matches'), h('div', {}, t.match_ids.map((mid) => h('a', { href: `#/match/${mid}`, class: 'card' }, mid))));
  }, onCleanup);
}
