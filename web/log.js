// The log a person reads: each event rendered from its typed fields in the game's words, with
// the seats named as the panel names them. Zero is a value like any other (seat 0, avatar 0,
// pile 0): the API sends every field, and nothing here skips a zero. Runs of events that
// belong together (a trade negotiation, the balls going back at a whistle) fold into one line
// that opens.
import { h, enumName } from './common.js';
import { armOf } from './boards.js';
import { describers } from './games/describe.js';

// logView keeps a log in el. append adds events; keep bounds the lines kept (a live log).
export function logView(el, game, names, { keep = 400 } = {}) {
  const d = describers[game];
  let open = null; // the group being filled: {key, el, items, summary}
  const view = {
    append(events) {
      for (const e of events || []) {
        const line = describeEvent(d, e, names);
        if (!line) continue;
        if (line.group && open && open.key === line.group) {
          open.items.push(line);
          open.list.append(h('div', { 'data-seq': e.seq }, line.text));
          open.sum.textContent = d.summary(open.items, names);
          continue;
        }
        open = null;
        if (line.group) {
          const list = h('div', { class: 'group-items' }, h('div', { 'data-seq': e.seq }, line.text));
          const sum = h('summary', {}, d.summary([line], names));
          el.append(h('details', { class: 'group', 'data-seq': e.seq }, sum, list));
          open = { key: line.group, items: [line], list, sum };
        } else {
          el.append(h('div', { 'data-seq': e.seq, class: line.cls || null }, line.text));
        }
      }
      while (el.childElementCount > keep) el.firstElementChild.remove();
      el.scrollTop = el.scrollHeight;
    },
    clear() { el.replaceChildren(); open = null; },
  };
  return view;
}

// describeEvent is an event as {text, group?}: the timeout the server records, or the game's.
export function describeEvent(d, e, names) {
  const name = nameOf(names);
  if (e.timed_out) return { text: `${name(e.timed_out.seat)} ran out of time: ${enumName(e.timed_out.policy, 'TIMEOUT_POLICY_')} move played`, cls: 'timeout' };
  const [, g] = armOf(e.game);
  if (!g) return null;
  return d ? d.describe(g, name) : { text: JSON.stringify(g) };
}

// nameOf names a seat as the panel does: "seat 2 (house-greedy)", or "nobody" for -1.
export function nameOf(names) {
  return (seat) => {
    if (seat === undefined || seat === null) return 'someone';
    if (seat < 0) return 'nobody';
    const n = names && names[seat];
    return n && n !== `seat ${seat}` ? `seat ${seat} (${n})` : `seat ${seat}`;
  };
}
