// makeBoard draws one game from its typed observations and the catalog's geometry. A board
// holds no rules: update(observation, ctx) redraws it. ctx may carry marks from a seat page
// (the keys a click can choose, with their labels; the keys already chosen; a preview of the
// chosen move) and the last move of a replay; a click on a piece calls opts.onKey with its key
// ("ship:3", "face:7").
export async function makeBoard(game, el, catalog, opts) {
  const mod = await gameModule(game);
  return mod.board(el, gameCatalog(catalog), opts || {});
}

// gameModule is a game's module: its board, how its legal actions are clicked (moves), and
// how its events read (describe).
export function gameModule(game) { return import(`./games/${game}.js`); }

// gameCatalog is the game's arm of an orrery.v1.Catalog.
export function gameCatalog(catalog) { return catalog ? Object.values(catalog).find((v) => v && typeof v === 'object') : null; }

// armOf is the one set arm of a oneof message: [name, value].
export function armOf(m) {
  if (!m) return [null, null];
  const e = Object.entries(m).find(([, v]) => v !== null && v !== undefined);
  return e || [null, null];
}

// gameAction is the game's arm of an orrery.v1.Action: [kind, fields].
export function gameAction(a) {
  const [, g] = armOf(a);
  return armOf(g);
}
