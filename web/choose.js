// The chooser turns a decision's legal list into clicks, as chessground turns a position's
// legal moves into "a piece, then where it goes". A game describes each legal action as a path
// of steps ({key, label}): keys of board elements ("ship:3", "face:7") or of controls ("grow").
// The person walks a path one click at a time; actions whose paths are equal are variants of
// one choice (a Planet tile's rotations), turned through before confirming. The chooser only
// narrows the legal list: it never decides what is legal.

// chooser over moves: [{index, steps: [{key, label}], text}].
export function chooser(moves) {
  let prefix = [];
  let variant = 0;
  const matches = (m) => prefix.every((k, i) => m.steps[i] && m.steps[i].key === k);
  const candidates = () => moves.filter(matches);
  // done are the candidates whose path is walked to its end: the variants of one choice.
  const done = () => candidates().filter((m) => m.steps.length === prefix.length);

  return {
    get prefix() { return prefix; },
    get empty() { return moves.length === 0; },
    // next is each key one click further, with its label and the moves it leads to.
    next() {
      const out = new Map();
      for (const m of candidates()) {
        const st = m.steps[prefix.length];
        if (!st) continue;
        const e = out.get(st.key) || { key: st.key, label: st.label, moves: [] };
        e.moves.push(m);
        out.set(st.key, e);
      }
      return out;
    },
    // ready is the chosen variant once a path is complete, with how many there are.
    ready() {
      const d = done();
      if (!d.length) return null;
      return { move: d[variant % d.length], variant: variant % d.length, variants: d };
    },
    // click walks one step. It answers what happened: 'step' (walked), 'ready' (a path is
    // complete), or 'miss' (the key leads nowhere from here: the caller may try the move
    // anyway and show the server's reason).
    click(key) {
      const nxt = this.next();
      if (!nxt.has(key)) {
        // A key that starts a path starts over there, as clicking another piece does.
        const saved = prefix;
        prefix = [];
        if (this.next().has(key)) return this.click(key);
        prefix = saved;
        return 'miss';
      }
      prefix = [...prefix, key];
      variant = 0;
      if (done().length && !this.next().size) return 'ready';
      return 'step';
    },
    // turn moves to the next (+1) or previous (-1) variant of a complete path.
    turn(d) {
      const n = done().length;
      if (n) variant = (variant + d + n) % n;
    },
    back() { prefix = prefix.slice(0, -1); variant = 0; },
    reset() { prefix = []; variant = 0; },
  };
}
