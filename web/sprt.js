// Strength tests (#/sprt lists them, #/sprt/ID shows one): the SPRT's live state (games, LLR
// with its bounds, Elo with its 95% interval, LOS, the decision), the LLR after each pair
// between the bounds, the pairs by score, and every counted pair with its two replays. A
// running test's page follows it on WatchSPRT and redraws after each counted pair.
import { get, stream } from './api.js';
import { h, s, enumName, fmtTime } from './common.js';

const signed = (x, d = 1) => (x >= 0 ? '+' : '') + x.toFixed(d);
// who names a side, with the hosted module version the test plays.
const who = (name, version) => (version ? `${name} v${version}` : name);

// decisionText says a test's outcome as a sentence.
export function decisionText(t) {
  switch (t.decision) {
    case 'H1': return `H1 accepted after ${t.games} games: ${t.candidate} is stronger`;
    case 'H0': return `H0 accepted after ${t.games} games: ${t.candidate} is not stronger by ${t.elo1} Elo`;
    case 'max_games': return `undecided after ${t.games} games: the budget ran out`;
  }
  const st = enumName(t.status, 'SPRT_STATUS_');
  return st === 'running' ? `running: ${t.games} games` : `${st} after ${t.games} games${t.error ? `: ${t.error}` : ''}`;
}

// statusLine is the numbers of a test's state, as the CLI's progress line gives them.
export function statusLine(t) {
  return `LLR ${t.llr.toFixed(2)} [${t.llr_lower.toFixed(2)}, ${t.llr_upper.toFixed(2)}] · ` +
    `Elo ${signed(t.elo)} [${signed(t.elo_low)}, ${signed(t.elo_high)}] · LOS ${(100 * t.los).toFixed(1)}%`;
}

// llrPlot draws the LLR after each pair against the games played, between the bounds at which
// the test accepts H0 (below) and H1 (above).
export function llrPlot(t) {
  const W = 720, H = 260, left = 48, right = 12, top = 12, bottom = 36;
  const llrs = t.llr_history || [];
  const svg = s('svg', { class: 'plot', id: 'llr', viewBox: `0 0 ${W} ${H}`, width: W, height: H });
  const lo = Math.min(t.llr_lower, ...llrs) * 1.1, hi = Math.max(t.llr_upper, ...llrs) * 1.1;
  const games = Math.max(2, 2 * llrs.length);
  const X = (g) => left + (g / games) * (W - left - right);
  const Y = (v) => H - bottom - ((v - lo) / (hi - lo)) * (H - top - bottom);
  const axes = s('g', { class: 'axes' },
    s('line', { x1: left, y1: H - bottom, x2: W - right, y2: H - bottom, stroke: '#3a4358' }),
    s('line', { x1: left, y1: top, x2: left, y2: H - bottom, stroke: '#3a4358' }),
    s('text', { x: left, y: H - 8 }, 'games →'), s('text', { class: 'tick', x: W - right - 40, y: H - bottom + 14 }, String(games)),
    s('text', { x: 2, y: top + 10 }, 'LLR'));
  for (const v of [t.llr_lower, 0, t.llr_upper]) axes.append(s('text', { class: 'tick', x: 4, y: Y(v) + 4 }, v.toFixed(2)));
  svg.append(axes,
    s('line', { class: 'bound upper', x1: left, y1: Y(t.llr_upper), x2: W - right, y2: Y(t.llr_upper), stroke: '#3cb44b', 'stroke-dasharray': '5 4' }),
    s('line', { class: 'bound lower', x1: left, y1: Y(t.llr_lower), x2: W - right, y2: Y(t.llr_lower), stroke: '#e6194b', 'stroke-dasharray': '5 4' }),
    s('line', { x1: left, y1: Y(0), x2: W - right, y2: Y(0), stroke: '#3a4358' }),
    s('text', { x: W - right - 70, y: Y(t.llr_upper) - 4, style: 'fill:#3cb44b' }, 'accept H1'),
    s('text', { x: W - right - 70, y: Y(t.llr_lower) + 14, style: 'fill:#e6194b' }, 'accept H0'));
  if (llrs.length) {
    const pts = [[0, 0], ...llrs.map((v, i) => [2 * (i + 1), v])];
    svg.append(s('polyline', { class: 'llr', 'data-pairs': llrs.length, fill: 'none', stroke: '#4363d8', 'stroke-width': 2, points: pts.map(([g, v]) => `${X(g)},${Y(v)}`).join(' ') },
      s('title', {}, `LLR ${t.llr.toFixed(3)} after ${t.games} games`)));
  }
  return svg;
}

// pairRows lists the counted pairs, newest first: the tested seat, both games' places and
// their replays (open once the test has ended: every deal follows from its seed).
function pairRows(t) {
  const ended = enumName(t.status, 'SPRT_STATUS_') !== 'running';
  const link = (id) => (ended && id ? h('a', { href: `#/match/${id}` }, 'replay') : h('span', { class: 'dim', title: 'replays open when the test has ended' }, 'sealed'));
  return (t.pair_list || []).slice().reverse().slice(0, 200).map((p) => h('tr', { class: 'pair', 'data-deal': p.deal },
    h('td', {}, p.deal), h('td', {}, p.seat), h('td', {}, (p.candidate_ranks || [])[p.seat]), h('td', {}, link(p.candidate_match_id)),
    h('td', {}, (p.baseline_ranks || [])[p.seat]), h('td', {}, link(p.baseline_match_id))));
}

// sprtPage is one test, followed while it runs.
export async function sprtPage(id, signal) {
  const app = document.getElementById('app');
  if (!id) return sprtList(app, signal);
  const box = h('div', { id: 'sprt' });
  app.append(box);
  let drawn = -1;
  async function draw() {
    const { sprt: t } = await get(`/v1/sprts/${encodeURIComponent(id)}`);
    if (signal.aborted || t.pairs < drawn) return;
    drawn = t.pairs;
    const status = enumName(t.status, 'SPRT_STATUS_');
    box.dataset.status = status;
    box.dataset.games = t.games;
    box.replaceChildren(
      h('h2', {}, `SPRT ${t.sprt_id} · ${t.game} · ${who(t.candidate, t.candidate_version)} against ${who(t.baseline, t.baseline_version)}`),
      h('div', { class: 'panel' },
        h('p', { class: 'dim' }, `${t.seats} seats, opponents ${(t.opponents || []).join(', ')}; H0 elo ≤ ${t.elo0}, H1 elo ≥ ${t.elo1}, ` +
          `alpha ${t.alpha}, beta ${t.beta}, at most ${t.max_games} games; started ${fmtTime(t.started)}` + (t.seed ? `; seed ${t.seed}` : '')),
        h('p', { id: 'decision', 'data-decision': t.decision || '' }, decisionText(t)),
        h('p', { id: 'numbers' }, statusLine(t)),
        llrPlot(t),
        h('p', { id: 'scores', class: 'dim' }, `pairs by score (0 to 1): ${(t.pair_scores || []).join(' · ')}`)),
      h('div', { class: 'panel' }, h('h2', {}, 'Pairs'),
        h('table', { id: 'pairs' }, h('thead', {}, h('tr', {}, ['deal', 'seat', `${t.candidate}'s place`, '', `${t.baseline}'s place`, ''].map((c) => h('th', {}, c)))),
          h('tbody', {}, pairRows(t)))));
    return status;
  }
  if ((await draw()) !== 'running') return;
  // One redraw at a time: a pair counted while one is drawn waits for the next message.
  let busy = false, again = false;
  const redraw = async () => {
    if (busy) { again = true; return; }
    busy = true;
    try { do { again = false; await draw(); } while (again && !signal.aborted); } finally { busy = false; }
  };
  await stream(`/v1/sprts/${encodeURIComponent(id)}/watch`, () => { redraw(); }, signal).catch((e) => { if (!signal.aborted) throw e; });
  if (!signal.aborted) await redraw();
}

// sprtList is the newest tests.
async function sprtList(app, signal) {
  const { sprts = [] } = await get('/v1/sprts?page_size=50');
  if (signal.aborted) return;
  app.append(h('div', { class: 'panel' }, h('h2', {}, 'Strength tests'), sprtTable(sprts)));
}

// sprtTable is a table of tests, each linking to its page.
export function sprtTable(sprts) {
  return h('table', { id: 'sprts' }, h('thead', {}, h('tr', {}, ['game', 'candidate', 'baseline', 'state', 'LLR', 'Elo', ''].map((c) => h('th', {}, c)))),
    h('tbody', {}, sprts.length ? sprts.map((t) => h('tr', { class: 'sprt', 'data-sprt': t.sprt_id },
      h('td', {}, t.game), h('td', {}, who(t.candidate, t.candidate_version)), h('td', {}, who(t.baseline, t.baseline_version)), h('td', {}, decisionText(t)),
      h('td', {}, `${t.llr.toFixed(2)} [${t.llr_lower.toFixed(2)}, ${t.llr_upper.toFixed(2)}]`), h('td', {}, signed(t.elo)),
      h('td', {}, h('a', { href: `#/sprt/${t.sprt_id}` }, 'follow')))) : [h('tr', {}, h('td', { colspan: 7, class: 'dim' }, 'no strength test yet'))]));
}
