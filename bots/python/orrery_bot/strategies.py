"""Bots: one that plays any game by legal index, and a Planet bot that reads the typed view."""

import random
import sys

from .client import Noted


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


MOST_REGIONS, LARGEST_TOUCHING, LARGEST_NOT_TOUCHING = 1, 2, 3


class PlanetBot:
    """Planet: plays the placement that wins the animals of this turn and the next ones.

    For each legal (tile, face, rotation) it rebuilds its own planet with the tile on it and
    measures every animal still in the columns (most regions of X, largest X touching Y,
    largest X not touching Y) against the best of the other planets as they stand now. A card
    it would win counts its points (2, or 1 for the objective's habitat), less for each turn
    further away; a tie counts a little, and the bare value breaks ties between losing
    placements. Each area of the secret objective's habitat adds a little, since the
    objective pays for area count. Ties go to the lowest index, so the bot is deterministic.

    It needs the dodecahedron's area adjacency from ListGames' catalog; without it, it only
    keeps each tile's habitats together with the areas of the same habitat on its face.
    """

    DECAY = 0.6  # weight of a card one turn further away

    def __init__(self, neighbours=None, log=None):
        # neighbours[area] is the three areas sharing an edge with it (Catalog.areas).
        self.neighbours = neighbours
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))

    def act(self, decision):
        obs = decision.observation.planet
        seat = decision.seat
        if seat >= len(obs.planets):
            return 0
        mine = self._areas(obs.planets[seat])
        me = obs.planets[seat]
        objective = me.objective.habitat if me.HasField("objective") else 0
        tiles = {t.id: list(t.areas) for t in obs.display}
        cards = []  # (weight, card)
        for col in obs.columns:
            if col.turn >= obs.turn:
                for card in col.cards:
                    points = 1 if (objective and card.habitat == objective) or obs.beginners else 2
                    cards.append((points * self.DECAY ** (col.turn - obs.turn), card))
        rivals = {}
        if self.neighbours:
            for i, planet in enumerate(obs.planets):
                if i == seat:
                    continue
                areas = self._areas(planet)
                regions = self._regions(areas)
                for _, card in cards:
                    key = id(card)
                    rivals[key] = max(rivals.get(key, 0), self._value(card, areas, regions))
        best, best_score = 0, None
        for i, action in enumerate(decision.legal):
            if action.WhichOneof("game") != "planet" or action.planet.WhichOneof("kind") != "place":
                continue
            p = action.planet.place
            tile = tiles.get(p.tile)
            if tile is None or len(tile) != 5:
                continue
            after = list(mine)
            for k, habitat in enumerate(tile):
                after[p.face * 5 + (k + p.rotation) % 5] = habitat
            score = self.score(after, tile, objective, cards, rivals)
            if best_score is None or score > best_score + 1e-9:
                best, best_score = i, score
        return best

    def score(self, after, tile, objective, cards, rivals):
        score = 0.15 * sum(1 for h in after if objective and h == objective)
        if not self.neighbours:
            # No geometry: keep same habitats next to each other on the tile's own face.
            return score + sum(1 for k in range(5) if tile[k] == tile[(k + 1) % 5])
        regions = self._regions(after)
        for weight, card in cards:
            mine = self._value(card, after, regions)
            rival = rivals.get(id(card), 0)
            if mine > rival:
                score += weight
            elif mine == rival and mine > 0:
                score += 0.3 * weight
            score += 0.02 * weight * mine
        return score

    def _value(self, card, areas, regions):
        """The planet's count for a card's requirement: regions, or areas of one region."""
        kind, x, y = card.kind, card.habitat, card.other
        if kind == MOST_REGIONS:
            return sum(1 for h, _ in regions if h == x)
        best = 0
        for h, members in regions:
            if h != x:
                continue
            touches = any(areas[n] == y for a in members for n in self.neighbours[a])
            if (kind == LARGEST_TOUCHING) == touches:
                best = max(best, len(members))
        return best

    def _regions(self, areas):
        """Maximal connected sets of one habitat: [(habitat, [areas])]."""
        seen = [False] * len(areas)
        out = []
        for start, h in enumerate(areas):
            if not h or seen[start]:
                continue
            seen[start] = True
            stack, members = [start], []
            while stack:
                a = stack.pop()
                members.append(a)
                for n in self.neighbours[a]:
                    if not seen[n] and areas[n] == h:
                        seen[n] = True
                        stack.append(n)
            out.append((h, members))
        return out

    @staticmethod
    def _areas(planet):
        areas = list(planet.areas)
        return (areas + [0] * 60)[:60]


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

    def __init__(self, seed=1, games=None, log=None, typed=True, notes=False):
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self.notes = notes  # note on each answer which strategy chose it (Answer.note)
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
        choice, how = self._act(decision)
        if self.notes:
            return Noted(choice, f"python {how}: {len(decision.legal)} legal")
        return choice

    def _act(self, decision):
        """The choice and the strategy that made it."""
        arm = decision.observation.WhichOneof("game")
        bot = self.typed.get(arm) if arm else None
        if bot is None:
            if arm is None and not self.warned:
                self.warned.add(arm)
                self.log(f"decision {decision.decision_id}: the observation has no game arm this "
                         f"client knows (game {self.game!r}: regenerate the code for a newer "
                         f"server); playing by legal index")
            return self.index.act(decision), "by index"
        try:
            return bot.act(decision), f"typed {arm}"
        except Exception as err:  # a strategy bug falls back to the generic bot, loudly
            self.log(f"{arm} strategy failed ({type(err).__name__}: {err}); playing by legal index")
            return self.index.act(decision), "by index after a strategy failure"
