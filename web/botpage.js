// A bot's page (#/bot/NAME): each game's rating with its doubt, its rating over its rated
// matches (mu with a band of ±3 sigma, axes, the values on hover), its recent matches with
// their replays, and head to head against the bots it has met in them; for a hosted bot, its
// module (hosted.js).
import { get } from './api.js';
import { h, s, fmtTime } from './common.js';
import { hostedPanel } from './hosted.js';

// ratingHistory draws mu after each rated match, the band mu ± 3 sigma around it, and the
// score mu - 3 sigma; hovering a point says its match and values.
export function ratingHistory(points) {
  const W = 720, H = 280, left = 48, right = 12, top = 12, bottom = 36;
  const svg = s('svg', { class: 'plot history', id: 'history', viewBox: `0 0 ${W} ${H}`, width: W, height: H });
  if (!points.length) { svg.append(s('text', { x: left, y: H / 2 }, 'no rated matches yet')); return svg; }
  const lo = Math.min(...points.map((p) => p.mu - 3 * p.sigma)), hi = Math.max(...points.map((p) => p.mu + 3 * p.sigma));
  const span = hi - lo || 1;
  const X = (i) => left + (points.length === 1 ? 0.5 : i / (points.length - 1)) * (W - left - right);
  const Y = (v) => H - bottom - ((v - lo) / span) * (H - top - bottom);
  const axes = s('g', { class: 'axes' },
    s('line', { x1: left, y1: H - bottom, x2: W - right, y2: H - bottom, stroke: '#3a4358' }),
    s('line', { x1: left, y1: top, x2: left, y2: H - bottom, stroke: '#3a4358' }),
    s('text', { x: left, y: H - 8 }, 'rated matches, oldest first →'),
    s('text', { x: 2, y: top + 10 }, 'rating'));
  for (let k = 0; k <= 4; k++) {
    const v = lo + (span * k) / 4;
    axes.append(s('line', { x1: left - 4, y1: Y(v), x2: left, y2: Y(v), stroke: '#3a4358' }), s('text', { class: 'tick', x: 4, y: Y(v) + 4 }, v.toFixed(1)));
  }
  const n = points.length;
  for (const i of [0, Math.floor((n - 1) / 2), n - 1]) axes.append(s('text', { class: 'tick', x: X(i) - 4, y: H - bottom + 14 }, String(i + 1)));
  const band = points.map((p, i) => `${X(i)},${Y(p.mu + 3 * p.sigma)}`).concat(points.map((p, i) => `${X(i)},${Y(p.mu - 3 * p.sigma)}`).reverse());
  svg.append(axes,
    s('polygon', { class: 'band', points: band.join(' '), fill: '#4363d8', 'fill-opacity': 0.18 }),
    s('polyline', { class: 'mu', fill: 'none', stroke: '#4363d8', 'stroke-width': 2, points: points.map((p, i) => `${X(i)},${Y(p.mu)}`).join(' ') }),
    s('polyline', { class: 'score', fill: 'none', stroke: '#f58231', 'stroke-width': 1.5, 'stroke-dasharray': '4 3', points: points.map((p, i) => `${X(i)},${Y(p.mu - 3 * p.sigma)}`).join(' ') }));
  points.forEach((p, i) => svg.append(s('circle', { class: 'point', 'data-match': p.match, cx: X(i), cy: Y(p.mu), r: 3.5, fill: '#4363d8' },
    s('title', {}, `match ${i + 1} (${p.match}): rank ${p.rank} of ${p.seats}; mu ${p.mu.toFixed(2)} ± ${p.sigma.toFixed(2)}, score ${(p.mu - 3 * p.sigma).toFixed(2)}`))));
  svg.append(s('text', { x: W - 260, y: top + 10, style: 'fill:#4363d8' }, 'mu ± 3 sigma'), s('text', { x: W - 150, y: top + 10, style: 'fill:#f58231' }, 'score mu - 3 sigma'));
  return svg;
}

// headToHead sums up the bots name met in matches (summaries with seat names and ranks):
// games together, the mean of their rank minus name's (positive: name finished ahead) and
// name's win share against each (finishing ahead 1, level 1/2, behind 0).
export function headToHead(name, matches) {
  const by = new Map();
  for (const m of matches) {
    const seats = m.seat_info || [];
    const ranks = m.result?.ranks || [];
    const mine = seats.findIndex((si) => si.name === name);
    if (mine < 0 || !ranks.length) continue;
    seats.forEach((si, i) => {
      if (i === mine) return;
      const o = by.get(si.name) || { bot: si.name, games: 0, diff: 0, share: 0 };
      o.games++;
      o.diff += ranks[i] - ranks[mine];
      o.share += ranks[mine] < ranks[i] ? 1 : ranks[mine] === ranks[i] ? 0.5 : 0;
      by.set(si.name, o);
    });
  }
  return [...by.values()].sort((a, b) => b.games - a.games || a.bot.localeCompare(b.bot))
    .map((o) => ({ bot: o.bot, games: o.games, meanRankDiff: o.diff / o.games, winShare: o.share / o.games }));
}

export async function botPage(name, signal) {
  const app = document.getElementById('app');
  const b = await get(`/v1/bots/${encodeURIComponent(name)}?recent_matches=200`);
  if (signal.aborted) return;
  const games = [...new Set(b.ratings.map((r) => r.game))];
  let game = games[0];
  const ratings = h('table', { id: 'ratings' }, h('thead', {}, h('tr', {}, ['game', 'mu', 'sigma', 'score', 'games', 'wins'].map((c) => h('th', {}, c)))),
    h('tbody', {}, b.ratings.map((r) => h('tr', { 'data-game': r.game }, h('td', {}, r.game), h('td', {}, r.mu.toFixed(2)), h('td', {}, r.sigma.toFixed(2)),
      h('td', {}, r.score.toFixed(2), r.provisional ? h('span', { class: 'provisional', title: 'provisional: sigma above 6, too few matches to read much into' }, ' ?') : ''),
      h('td', {}, r.games), h('td', {}, r.wins)))));
  const plot = h('div', { id: 'historyplot' });
  const recent = h('div', { id: 'recent' });
  const h2h = h('div', { id: 'h2h' });
  const pick = h('div', { class: 'controls' }, games.map((g) => h('a', { href: 'javascript:void 0', onclick: () => { game = g; draw(); } }, g)));
  app.append(h('h2', {}, `bot ${b.bot.name}`), h('div', { class: 'panel' }, b.bot.description || '', ratings), hostedPanel(b) || '',
    h('div', { class: 'panel' }, h('h2', {}, 'Rating over rated matches'), pick, plot),
    h('div', { class: 'panel' }, h('h2', {}, 'Head to head'), h2h),
    h('div', { class: 'panel' }, h('h2', {}, 'Recent matches'), recent));
  const summaries = new Map();
  async function draw() {
    const mine = b.recent.filter((r) => r.game === game);
    plot.replaceChildren(ratingHistory(mine.slice().reverse().map((r) => ({ match: r.match_id, rank: r.rank, seats: r.seats, mu: r.mu_after, sigma: r.sigma_after }))));
    recent.replaceChildren(h('table', {}, h('thead', {}, h('tr', {}, ['match', 'rank', 'mu', 'rated'].map((c) => h('th', {}, c)))),
      h('tbody', {}, mine.slice(0, 30).map((r) => h('tr', {}, h('td', {}, h('a', { href: `#/match/${r.match_id}` }, r.match_id)),
        h('td', {}, `${r.rank} of ${r.seats}`), h('td', {}, `${r.mu_before.toFixed(2)} → ${r.mu_after.toFixed(2)}`), h('td', {}, fmtTime(r.rated)))))));
    const ms = await Promise.all(mine.slice(0, 50).map(async (r) => {
      if (!summaries.has(r.match_id)) summaries.set(r.match_id, get(`/v1/matches/${encodeURIComponent(r.match_id)}`).then((x) => x.match));
      return summaries.get(r.match_id);
    }));
    if (signal.aborted) return;
    const rows = headToHead(b.bot.name, ms);
    h2h.replaceChildren(h('table', {}, h('thead', {}, h('tr', {}, ['against', 'games', 'mean rank difference', 'win share'].map((c) => h('th', {}, c)))),
      h('tbody', {}, rows.map((o) => h('tr', { 'data-bot': o.bot }, h('td', {}, o.bot), h('td', {}, o.games),
        h('td', {}, (o.meanRankDiff >= 0 ? '+' : '') + o.meanRankDiff.toFixed(2)), h('td', {}, `${(100 * o.winShare).toFixed(0)}%`))))),
    h('div', { class: 'dim' }, `over its last ${ms.length} rated ${game} matches; rank difference: theirs minus ${b.bot.name}'s`));
  }
  await draw();
}
