"""Bots: one that plays any game by legal index, and a Planet bot that reads the typed view."""

import random
import sys


class IndexBot:
    """Plays any game: a seeded uniform pick among the listed legal actions.

    It never looks inside the observation, so it keeps working for games this client's
    generated code has never heard of.
    """

    def __init__(self, seed=1):
        self.rng = random.Random(seed)

    def act(self, decision):
        n = len(decision.legal) or len(decision.legal_notation)
        return self.rng.randrange(n) if n else 0


class PlanetBot:
    """Planet: takes the placement that grows its own regions, its objective's habitat first.

    For each legal (tile, face, rotation) it scores the areas the tile would cover:
    - each edge shared with an area of the same habitat (bigger regions win most animals),
      three times as much for the secret objective's habitat;
    - each area of the objective's habitat (the objective pays for area count);
    - each area of a habitat that an animal of this turn's column asks for.
    Ties go to the lowest index, so the bot is deterministic. It needs the dodecahedron's area
    adjacency from ListGames' catalog; without it, it counts only the tile's own edges.
    """

    def __init__(self, neighbours=None, log=None):
        # neighbours[area] is the three areas sharing an edge with it (Catalog.areas).
        self.neighbours = neighbours
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))

    def act(self, decision):
        obs = decision.observation.planet
        seat = decision.seat
        if seat >= len(obs.planets):
            return 0
        mine = list(obs.planets[seat].areas)
        if len(mine) != 60:
            mine = (mine + [0] * 60)[:60]
        objective = obs.planets[seat].objective.habitat if obs.planets[seat].HasField("objective") else 0
        tiles = {t.id: list(t.areas) for t in obs.display}
        wanted = set()
        for col in obs.columns:
            if col.turn == obs.turn:
                wanted.update(card.habitat for card in col.cards)
        best, best_score = 0, None
        for i, action in enumerate(decision.legal):
            if action.WhichOneof("game") != "planet" or action.planet.WhichOneof("kind") != "place":
                continue
            p = action.planet.place
            tile = tiles.get(p.tile)
            if tile is None or len(tile) != 5:
                continue
            score = self.score(mine, tile, p.face, p.rotation, objective, wanted)
            if best_score is None or score > best_score:
                best, best_score = i, score
        return best

    def score(self, areas, tile, face, rotation, objective, wanted):
        after = list(areas)
        placed = []
        for k, habitat in enumerate(tile):
            a = face * 5 + (k + rotation) % 5
            after[a] = habitat
            placed.append(a)
        score = 0
        for a in placed:
            h = after[a]
            for n in self._neighbours(a):
                if after[n] == h and n not in placed:
                    score += 3 if h == objective else 1
            if h == objective:
                score += 2
            if h in wanted:
                score += 1
        # Edges inside the tile: same-habitat neighbours on one face, each pair once.
        for k in range(5):
            if tile[k] == tile[(k + 1) % 5]:
                score += 3 if tile[k] == objective else 1
        return score

    def _neighbours(self, area):
        if self.neighbours and area < len(self.neighbours):
            return self.neighbours[area]
        face, edge = divmod(area, 5)
        return [face * 5 + (edge + 1) % 5, face * 5 + (edge + 4) % 5]


def planet_neighbours(game_info):
    """The area adjacency from a ListGames entry for planet, or None."""
    if game_info is None or game_info.catalog.WhichOneof("game") != "planet":
        return None
    areas = game_info.catalog.planet.areas
    if len(areas) != 60:
        return None
    return [list(a.neighbours) for a in sorted(areas, key=lambda a: a.id)]


class AutoBot:
    """Chooses a strategy per decision: the typed one for a game it knows, else by index.

    An observation arm this client does not know (a game added to the server after the code
    was generated) reads as no arm at all: the bot says so once and plays by legal index.
    """

    def __init__(self, seed=1, games=None, log=None, typed=True):
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self.index = IndexBot(seed)
        self.typed = {}
        self.game = None
        self.warned = set()
        if typed:
            info = (games or {}).get("planet")
            self.typed["planet"] = PlanetBot(planet_neighbours(info), log=self.log)

    def joined(self, joined):
        self.game = joined.game
        arm = "planet" if joined.game in self.typed else None
        how = f"the typed {arm} strategy" if arm else "legal index (no typed strategy for this game)"
        self.log(f"joined match {joined.match_id} ({joined.game}) as seat {joined.seat} of "
                 f"{joined.seats}; playing by {how}")

    def act(self, decision):
        arm = decision.observation.WhichOneof("game")
        bot = self.typed.get(arm) if arm else None
        if bot is None:
            if arm is None and not self.warned:
                self.warned.add(arm)
                self.log(f"decision {decision.decision_id}: the observation has no game arm this "
                         f"client knows (game {self.game!r}: regenerate the code for a newer "
                         f"server); playing by legal index")
            return self.index.act(decision)
        try:
            return bot.act(decision)
        except Exception as err:  # a strategy bug falls back to the generic bot, loudly
            self.log(f"{arm} strategy failed ({type(err).__name__}: {err}); playing by legal index")
            return self.index.act(decision)
