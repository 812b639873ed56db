// makeBoard draws one game from its typed observations and the catalog's geometry. A board
// holds no rules: update(observation) redraws it, and clicking a piece calls opts.onPick with
// the notation token that names it ("sys3", "s12"), for a seat page to filter its legal list.
export async function makeBoard(game, el, catalog, opts) {
  const mod = await import(`./games/${game}.js`);
  const gameCatalog = catalog ? Object.values(catalog).find((v) => v && typeof v === 'object') : null;
  return mod.board(el, gameCatalog, opts || {});
}
