'use strict';
// Bots: one that plays any game by legal index, and a Planet bot that reads the typed view.

const { Noted } = require('./orrery');

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

// PlanetBot plays the placement that wins the animals of this turn and the next ones.
//
// For each legal (tile, face, rotation) it rebuilds its own planet with the tile on it and
// measures every animal still in the columns (most regions of X, largest X touching Y, largest
// X not touching Y) against the best of the other planets as they stand now. A card it would
// win counts its points (2, or 1 for the objective's habitat), less for each turn further away;
// a tie counts a little, and the bare value breaks ties between losing placements. Each area of
// the secret objective's habitat adds a little, since the objective pays for area count. Ties
// go to the lowest index, so the bot is deterministic.
//
// It needs the dodecahedron's area adjacency from ListGames' catalog; without it, it only keeps
// each tile's habitats together. This is the same strategy as bots/python's PlanetBot.
const EMPTY = 'HABITAT_UNSPECIFIED';
const DECAY = 0.6; // weight of a card one turn further away

class PlanetBot {
  constructor(neighbours = null) {
    this.neighbours = neighbours; // neighbours[area]: the three areas sharing an edge with it
  }

  act(d) {
    const obs = d.observation.planet;
    const seat = d.seat;
    if (seat >= obs.planets.length) return 0;
    const me = obs.planets[seat];
    const mine = areasOf(me);
    const objective = me.objective ? me.objective.habitat : EMPTY;
    const tiles = new Map(obs.display.map((t) => [t.id, t.areas]));
    const cards = []; // [weight, card, best rival value]
    for (const col of obs.columns) {
      if (col.turn < obs.turn) continue;
      for (const card of col.cards) {
        const points = (objective !== EMPTY && card.habitat === objective) || obs.beginners ? 1 : 2;
        cards.push([points * DECAY ** (col.turn - obs.turn), card, 0]);
      }
    }
    if (this.neighbours) {
      obs.planets.forEach((planet, i) => {
        if (i === seat) return;
        const areas = areasOf(planet);
        const regions = this.regions(areas);
        for (const c of cards) c[2] = Math.max(c[2], this.value(c[1], areas, regions));
      });
    }
    let best = 0;
    let bestScore = null;
    d.legal.forEach((action, i) => {
      if (action.game !== 'planet' || action.planet.kind !== 'place') return;
      const p = action.planet.place;
      const tile = tiles.get(p.tile);
      if (!tile || tile.length !== 5) return;
      const after = mine.slice();
      tile.forEach((h, k) => { after[p.face * 5 + ((k + p.rotation) % 5)] = h; });
      const score = this.score(after, tile, objective, cards);
      if (bestScore === null || score > bestScore + 1e-9) {
        best = i;
        bestScore = score;
      }
    });
    return best;
  }

  score(after, tile, objective, cards) {
    let score = 0.15 * after.filter((h) => objective !== EMPTY && h === objective).length;
    if (!this.neighbours) {
      // No geometry: keep same habitats next to each other on the tile's own face.
      for (let k = 0; k < 5; k++) if (tile[k] === tile[(k + 1) % 5]) score += 1;
      return score;
    }
    const regions = this.regions(after);
    for (const [weight, card, rival] of cards) {
      const mine = this.value(card, after, regions);
      if (mine > rival) score += weight;
      else if (mine === rival && mine > 0) score += 0.3 * weight;
      score += 0.02 * weight * mine;
    }
    return score;
  }

  // value is the planet's count for a card's requirement: regions, or areas of one region.
  value(card, areas, regions) {
    const x = card.habitat;
    const y = card.other;
    if (card.kind === 'REQUIREMENT_KIND_MOST_REGIONS') return regions.filter(([h]) => h === x).length;
    const touching = card.kind === 'REQUIREMENT_KIND_LARGEST_TOUCHING';
    let best = 0;
    for (const [h, members] of regions) {
      if (h !== x) continue;
      const touches = members.some((a) => this.neighbours[a].some((n) => areas[n] === y));
      if (touching === touches) best = Math.max(best, members.length);
    }
    return best;
  }

  // regions are the maximal connected sets of one habitat: [[habitat, [areas]]].
  regions(areas) {
    const seen = new Array(areas.length).fill(false);
    const out = [];
    areas.forEach((h, start) => {
      if (h === EMPTY || seen[start]) return;
      seen[start] = true;
      const stack = [start];
      const members = [];
      while (stack.length) {
        const a = stack.pop();
        members.push(a);
        for (const n of this.neighbours[a]) {
          if (!seen[n] && areas[n] === h) {
            seen[n] = true;
            stack.push(n);
          }
        }
      }
      out.push([h, members]);
    });
    return out;
  }
}

function areasOf(planet) {
  const areas = planet.areas.slice(0, 60);
  while (areas.length < 60) areas.push(EMPTY);
  return areas;
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
  constructor({ seed = 1, games = {}, log = (m) => process.stderr.write(`${m}\n`), typed = true, notes = false } = {}) {
    this.log = log;
    this.notes = notes; // note on each answer which strategy chose it (Answer.note)
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
    const [choice, how] = this.choose(d);
    return this.notes ? new Noted(choice, `js ${how}: ${d.legal.length} legal`) : choice;
  }

  // choose is the choice and the strategy that made it.
  choose(d) {
    const arm = d.observation ? d.observation.game : undefined;
    const bot = arm ? this.typed[arm] : undefined;
    if (!bot) {
      if (!arm && !this.warned) {
        this.warned = true;
        this.log(`decision ${d.decision_id}: the observation has no game arm this client knows (game ${JSON.stringify(this.game)}: update proto/ for a newer server); playing by legal index`);
      }
      return [this.index.act(d), 'by index'];
    }
    try {
      return [bot.act(d), `typed ${arm}`];
    } catch (err) { // a strategy bug falls back to the generic bot, loudly
      this.log(`${arm} strategy failed (${err && err.message}); playing by legal index`);
      return [this.index.act(d), 'by index after a strategy failure'];
    }
  }
}

module.exports = { AutoBot, IndexBot, PlanetBot, planetNeighbours, mulberry32 };
