'use strict';
// Bots: one that plays any game by legal index, and a Planet bot that reads the typed view.

// mulberry32 is a small seeded generator, so a seeded bot plays the same way every time.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// IndexBot plays any game: a seeded uniform pick among the listed legal actions. It never
// looks inside the observation, so it keeps working for games this client has never heard of.
class IndexBot {
  constructor(seed = 1) {
    this.rand = mulberry32(seed);
  }

  act(d) {
    const n = d.legal.length || d.legal_notation.length;
    return n ? Math.floor(this.rand() * n) : 0;
  }
}

// PlanetBot takes the placement that grows its own regions, its objective's habitat first.
// For each legal (tile, face, rotation) it scores the areas the tile would cover:
// - each edge shared with an area of the same habitat (bigger regions win most animals),
//   three times as much for the secret objective's habitat;
// - each area of the objective's habitat (the objective pays for area count);
// - each area of a habitat that an animal of this turn's column asks for.
// Ties go to the lowest index, so the bot is deterministic. It needs the dodecahedron's area
// adjacency from ListGames' catalog; without it, it counts only the tile's own edges.
class PlanetBot {
  constructor(neighbours = null) {
    this.neighbours = neighbours; // neighbours[area]: the three areas sharing an edge with it
  }

  act(d) {
    const obs = d.observation.planet;
    const seat = d.seat;
    if (seat >= obs.planets.length) return 0;
    const me = obs.planets[seat];
    const mine = me.areas.slice(0, 60);
    while (mine.length < 60) mine.push('HABITAT_UNSPECIFIED');
    const objective = me.objective ? me.objective.habitat : 'HABITAT_UNSPECIFIED';
    const tiles = new Map(obs.display.map((t) => [t.id, t.areas]));
    const wanted = new Set();
    for (const col of obs.columns) {
      if (col.turn === obs.turn) for (const card of col.cards) wanted.add(card.habitat);
    }
    let best = 0;
    let bestScore = null;
    d.legal.forEach((action, i) => {
      if (action.game !== 'planet' || action.planet.kind !== 'place') return;
      const p = action.planet.place;
      const tile = tiles.get(p.tile);
      if (!tile || tile.length !== 5) return;
      const score = this.score(mine, tile, p.face, p.rotation, objective, wanted);
      if (bestScore === null || score > bestScore) {
        best = i;
        bestScore = score;
      }
    });
    return best;
  }

  score(areas, tile, face, rotation, objective, wanted) {
    const after = areas.slice();
    const placed = [];
    tile.forEach((habitat, k) => {
      const a = face * 5 + ((k + rotation) % 5);
      after[a] = habitat;
      placed.push(a);
    });
    let score = 0;
    for (const a of placed) {
      const h = after[a];
      for (const n of this.neighboursOf(a)) {
        if (after[n] === h && !placed.includes(n)) score += h === objective ? 3 : 1;
      }
      if (h === objective) score += 2;
      if (wanted.has(h)) score += 1;
    }
    // Edges inside the tile: same-habitat neighbours on one face, each pair once.
    for (let k = 0; k < 5; k++) {
      if (tile[k] === tile[(k + 1) % 5]) score += tile[k] === objective ? 3 : 1;
    }
    return score;
  }

  neighboursOf(area) {
    if (this.neighbours && area < this.neighbours.length) return this.neighbours[area];
    const face = Math.floor(area / 5);
    const edge = area % 5;
    return [face * 5 + ((edge + 1) % 5), face * 5 + ((edge + 4) % 5)];
  }
}

// planetNeighbours is the area adjacency from a ListGames entry for planet, or null.
function planetNeighbours(info) {
  if (!info || !info.catalog || info.catalog.game !== 'planet') return null;
  const areas = info.catalog.planet.areas;
  if (areas.length !== 60) return null;
  return areas.slice().sort((x, y) => x.id - y.id).map((a) => a.neighbours);
}

// AutoBot chooses a strategy per decision: the typed one for a game it knows, else by index.
// An observation arm this client does not know (a game added to the server after these .proto
// files were copied) reads as no arm at all: the bot says so once and plays by legal index.
class AutoBot {
  constructor({ seed = 1, games = {}, log = (m) => process.stderr.write(`${m}\n`), typed = true } = {}) {
    this.log = log;
    this.index = new IndexBot(seed);
    this.typed = {};
    if (typed) this.typed.planet = new PlanetBot(planetNeighbours(games.planet));
    this.game = null;
    this.warned = false;
  }

  joined(j) {
    this.game = j.game;
    const how = this.typed[j.game] ? `the typed ${j.game} strategy` : 'legal index (no typed strategy for this game)';
    this.log(`joined match ${j.match_id} (${j.game}) as seat ${j.seat} of ${j.seats}; playing by ${how}`);
  }

  act(d) {
    const arm = d.observation ? d.observation.game : undefined;
    const bot = arm ? this.typed[arm] : undefined;
    if (!bot) {
      if (!arm && !this.warned) {
        this.warned = true;
        this.log(`decision ${d.decision_id}: the observation has no game arm this client knows (game ${JSON.stringify(this.game)}: update proto/ for a newer server); playing by legal index`);
      }
      return this.index.act(d);
    }
    try {
      return bot.act(d);
    } catch (err) { // a strategy bug falls back to the generic bot, loudly
      this.log(`${arm} strategy failed (${err && err.message}); playing by legal index`);
      return this.index.act(d);
    }
  }
}

module.exports = { AutoBot, IndexBot, PlanetBot, planetNeighbours, mulberry32 };
