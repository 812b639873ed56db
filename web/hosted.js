// A hosted bot's part of its page (docs/hosted.md): its module versions, the verdicts its
// seats got, its newest seats, and the last lines of its stderr, which the server gives only
// to a call with the bot's own API key or the admin key. The key stays in this tab only
// (sessionStorage), as the admin key does.
import { get } from './api.js';
import { h, fmtTime } from './common.js';

// stderrLines is how many of the newest stderr lines the page shows.
const stderrLines = 40;

const keyName = (name) => `orrery-bot-key:${name}`;

export function hostedPanel(b) {
  const name = b.bot.name;
  const mods = b.bot.modules || [];
  if (!mods.length) return null;
  const versions = h('table', { id: 'versions' },
    h('thead', {}, h('tr', {}, ['version', 'digest', 'size', 'games', 'uploaded'].map((c) => h('th', {}, c)))),
    h('tbody', {}, mods.map((m) => h('tr', { 'data-version': m.version }, h('td', {}, m.version),
      h('td', { title: m.digest }, m.digest.slice(0, 12)), h('td', {}, `${(Number(m.size) / 1024).toFixed(0)} KiB`),
      h('td', {}, (m.games || []).join(', ')), h('td', {}, fmtTime(m.uploaded))))));
  const counts = Object.entries(b.verdicts || {}).sort(([x], [y]) => x.localeCompare(y));
  const verdicts = h('table', { id: 'verdicts' },
    h('thead', {}, h('tr', {}, h('th', {}, 'verdict'), h('th', {}, 'seats'))),
    h('tbody', {}, counts.length ? counts.map(([k, n]) => h('tr', { 'data-verdict': k }, h('td', {}, k), h('td', {}, n)))
      : h('tr', {}, h('td', { colspan: 2, class: 'dim' }, 'none: no seat broke a limit'))));
  const seats = h('table', { id: 'hostedseats' },
    h('thead', {}, h('tr', {}, ['match', 'seat', 'version', 'verdict', 'decisions', 'CPU a decision'].map((c) => h('th', {}, c)))),
    h('tbody', {}, (b.hosted_seats || []).map((st) => h('tr', {}, h('td', {}, h('a', { href: `#/match/${st.match_id}` }, st.match_id)),
      h('td', {}, st.seat), h('td', {}, st.version), h('td', { title: st.verdict_detail || '' }, st.verdict || '—'), h('td', {}, st.decisions),
      h('td', {}, st.decisions ? `${(Number(st.cpu_ns) / st.decisions / 1000).toFixed(0)} µs` : '')))));
  const stderr = h('div', { id: 'stderr' });
  const key = h('input', { id: 'botkey', type: 'password', placeholder: `${name}'s API key, or the admin key`, size: 40 });
  async function show(k) {
    let got;
    try {
      got = await get(`/v1/bots/${encodeURIComponent(name)}`, k);
    } catch (e) {
      stderr.replaceChildren(h('p', { class: 'bad' }, `could not read the stderr: ${e.message}`));
      return;
    }
    if (!got.stderr) {
      sessionStorage.removeItem(keyName(name));
      stderr.replaceChildren(h('p', { class: 'dim', id: 'nostderr' },
        `No stderr for this key: it is neither ${name}'s API key nor the admin key, or the bot has written nothing.`));
      return;
    }
    sessionStorage.setItem(keyName(name), k);
    const lines = got.stderr.replace(/\n$/, '').split('\n');
    stderr.replaceChildren(h('div', { class: 'dim' }, `the last ${Math.min(lines.length, stderrLines)} lines of its newest seat's stderr`),
      h('pre', { class: 'stderr' }, lines.slice(-stderrLines).join('\n')));
  }
  const form = h('form', { class: 'controls', onsubmit: (ev) => { ev.preventDefault(); if (key.value) show(key.value); } },
    key, h('button', { type: 'submit', id: 'showstderr' }, 'show stderr'));
  const saved = sessionStorage.getItem(keyName(name));
  if (saved) show(saved);
  return h('div', { class: 'panel', id: 'hosted' }, h('h2', {}, 'Hosted module'),
    h('p', { class: 'dim' }, 'The server plays this bot itself, a WebAssembly module. Each upload is a version; the ladder plays the newest, a tournament the one that was newest when it started.'),
    versions, h('h3', {}, 'Verdicts'), verdicts, h('h3', {}, 'Newest seats'), seats,
    h('h3', {}, 'Stderr'), h('p', { class: 'dim' }, 'Only the bot\'s owner (its key) or the admin may read it.'), form, stderr);
}
