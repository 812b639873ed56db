// The arena's pages, routed by the URL's fragment: #/ (home), #/match/ID (live or replay),
// #/match/ID?ply=N (a replay at a ply), #/seat/TOKEN (a person plays a seat; the token stays
// in the fragment, which browsers never send to a server), #/standings, #/tournament/ID,
// #/bot/NAME, #/sprt and #/sprt/ID (strength tests).
import { get, stream } from './api.js';
import { h, seatColor, swatch, enumName, fmtTime, observationOf, resultText } from './common.js';
import { makeBoard } from './boards.js';
import { ratingPlot } from './plot.js';
import { botPage } from './botpage.js';
import { sprtPage, sprtTable } from './sprt.js';
import { logView } from './log.js';
import { replay } from './replay.js';
import { seat as seatPage } from './seat.js';
import { newMatch } from './newmatch.js';
import { abortControl, forgetCreator } from './creator.js';

const app = document.getElementById('app');
let cleanup = () => {};

let gamesPromise;
function games() {
  gamesPromise ||= get('/v1/games').then((r) => Object.fromEntries(r.games.map((g) => [g.name, g])));
  return gamesPromise;
}

const seat = (token, signal, onCleanup) => seatPage(token, signal, onCleanup, { app, games });

// route draws the page the fragment names; a change of the query alone (a replay's ply, which
// the replay writes itself) is not a new page.
let routed = '';
function onHash() {
  const path = location.hash.split('?')[0];
  if (path !== routed) route();
}

function route() {
  routed = location.hash.split('?')[0];
  cleanup();
  cleanup = () => {};
  // The query after the path (?ply=N) is the page's own: the path alone names the page.
  const parts = location.hash.replace(/^#\/?/, '').split('?')[0].split('/');
  const page = { '': home, match, seat, standings, tournament, bot: botPage, sprt: sprtPage }[parts[0]] || home;
  app.replaceChildren();
  const ctl = new AbortController();
  const extra = [];
  cleanup = () => { ctl.abort(); extra.forEach((f) => f()); };
  page(decodeURIComponent(parts.slice(1).join('/')), ctl.signal, (f) => extra.push(f)).catch((err) => {
    if (!ctl.signal.aborted) app.append(h('p', { class: 'error' }, String(err.message || err)));
  });
}
window.addEventListener('hashchange', onHash);
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


// Home: live matches, recent finished ones, and each game's leaderboard.
async function home(_, signal, onCleanup) {
  const live = h('tbody', { id: 'live' });
  const recent = h('tbody', { id: 'recent' });
  const boards = h('div', { id: 'leaderboards', class: 'stats' });
  const tournaments = h('tbody', { id: 'tournaments' });
  const sprts = h('div', { id: 'home-sprts' });
  app.append(
    h('div', { class: 'panel' }, h('h2', {}, 'Live matches'),
      h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'game'), h('th', {}, 'seats'), h('th', {}, 'ply'), h('th', {}, 'started'), h('th', {}))), live)),
    h('div', { class: 'panel' }, h('h2', {}, 'Recently finished'),
      h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'game'), h('th', {}, 'seats'), h('th', {}, 'result'), h('th', {}, 'plies'), h('th', {}))), recent)),
    h('div', { class: 'panel' }, h('h2', {}, 'Leaderboards'), boards),
    h('div', { class: 'panel' }, h('h2', {}, 'Tournaments'),
      h('table', {}, h('thead', {}, h('tr', {}, ['game', 'format', 'entrants', 'progress', 'leader', ''].map((c) => h('th', {}, c)))), tournaments)),
    h('div', { class: 'panel' }, h('h2', {}, 'Strength tests'), sprts),
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
  every(5000, async () => {
    // A server without the ladder has no strength tests: the panel says so.
    const r = await get('/v1/sprts?page_size=10').catch(() => null);
    if (signal.aborted) return;
    sprts.replaceChildren(r ? sprtTable(r.sprts || []) : h('p', { class: 'dim' }, 'this server runs no strength tests'));
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

// newMatchPanel is the New match form (newmatch.js).
async function newMatchPanel() { return newMatch(await games()); }

function leaderboardTables(entries) {
  const byGame = {};
  for (const e of entries) (byGame[e.game] ||= []).push(e);
  return Object.entries(byGame).map(([game, es]) => h('div', { 'data-game': game },
    h('h2', {}, h('a', { href: `#/standings/${game}` }, game)),
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'bot'), h('th', {}, 'score'), h('th', {}, 'mu ± sigma'), h('th', {}, 'games'), h('th', {}, 'wins'))),
      h('tbody', {}, es.map((e) => h('tr', { 'data-bot': e.bot }, h('td', {}, e.rank), h('td', {}, h('a', { href: `#/bot/${encodeURIComponent(e.bot)}` }, e.bot)),
        h('td', {}, e.score.toFixed(2), e.provisional ? h('span', { class: 'provisional', title: 'provisional: sigma above 6, too few matches to read much into' }, ' ?') : ''),
        h('td', {}, `${e.mu.toFixed(2)} ± ${e.sigma.toFixed(2)}`), h('td', {}, e.games), h('td', {}, e.wins))))),
    h('div', { class: 'dim' }, 'score = mu - 3 sigma; ? provisional: sigma above 6 (12 to 18 rated matches)')));
}

// A match: live through Watch while it runs, then as a replay.
async function match(id, signal, onCleanup) {
  const { match: m } = await get(`/v1/matches/${encodeURIComponent(id)}`);
  const catalog = (await games())[m.game];
  if (m.status === 'MATCH_STATUS_FINISHED') return replay(m, catalog, signal, onCleanup, { app, names: names(m), layout });
  return live(m, catalog, signal, onCleanup);
}

export function layout(m, title) {
  const boardEl = h('div', { class: 'board', id: 'board', 'data-game': m.game });
  const side = h('div', { id: 'side' });
  const log = h('div', { class: 'log', id: 'log' });
  app.append(h('h2', {}, `${title} · ${m.game} `, seatNames(m)),
    h('div', { class: 'grid' }, h('div', {}, boardEl, h('div', { id: 'below' })), h('div', {}, side, h('div', { class: 'panel' }, h('h2', {}, 'Log'), log))));
  return { boardEl, side, log, below: document.getElementById('below') };
}

async function live(m, catalog, signal, onCleanup) {
  const { boardEl, side, log } = layout(m, 'Live');
  const board = await makeBoard(m.game, boardEl, catalog.catalog, { seats: m.seats, names: names(m) });
  onCleanup(() => board.destroy());
  const status = h('div', { class: 'panel', id: 'status' }, 'watching…');
  side.prepend(status);
  // The match's creator, in the browser that made it, may end it from here too.
  const abort = abortControl(m.match_id, (text) => { abortPanel.append(h('div', { class: 'error' }, text)); });
  const abortPanel = h('div', { class: 'panel' }, abort);
  if (abort) status.after(abortPanel);
  const lines = logView(log, m.game, names(m));
  await stream(`/v1/matches/${encodeURIComponent(m.match_id)}/watch`, (msg) => {
    if (msg.view) {
      board.update(observationOf(msg.view.observation), { ply: msg.view.ply });
      boardEl.dataset.ply = msg.view.ply;
      status.textContent = `ply ${msg.view.ply}`;
    }
    if (msg.events) lines.append(msg.events.events);
    if (msg.ended) {
      boardEl.dataset.ended = 'true';
      abortPanel.remove();
      forgetCreator(m.match_id);
      status.replaceChildren(h('div', { id: 'result' }, resultText({ ...m, result: msg.ended.result })),
        h('button', { id: 'toreplay', onclick: () => route() }, 'Open the replay'));
    }
  }, signal);
}

function names(m) { return (m.seat_info || []).map((si) => si.name || `seat ${si.seat}`); }

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
