"""Unit tests of the strategies; the Go test cmd/orrery/foreign_test.go plays real matches.

Run from bots/python: /usr/bin/python3 -m unittest discover -s tests
"""

import unittest

from orrery.planet.v1 import planet_pb2
from orrery.v1 import arena_pb2
from orrery_bot import AutoBot, IndexBot, Noted, PlanetBot, answer_for

# A decision whose observation holds field 99: a game arm added after this code was generated.
UNKNOWN_ARM = bytes.fromhex("0a026431" "2203" "9a0600" "320161" "320162")


def planet_decision(objective=planet_pb2.HABITAT_FOREST):
    """Seat 0's first move with one tile (forest, forest, forest, ocean, ocean) on display."""
    d = arena_pb2.Decision(decision_id="d1", seat=0)
    obs = d.observation.planet
    obs.seat, obs.seats, obs.turn = 0, 2, 1
    F, O = planet_pb2.HABITAT_FOREST, planet_pb2.HABITAT_OCEAN
    obs.display.add(id=7, areas=[F, F, F, O, O])
    me = obs.planets.add(seat=0, areas=[0] * 60)
    me.objective.habitat = objective
    obs.planets.add(seat=1, areas=[0] * 60)
    # This turn's animal: the largest forest not touching glacier (there is no glacier).
    obs.columns.add(turn=1).cards.add(id=1, habitat=F, kind=planet_pb2.REQUIREMENT_KIND_LARGEST_NOT_TOUCHING,
                                      other=planet_pb2.HABITAT_GLACIER)
    # Pre-fill face 1 with forest so the bot can grow a region across the shared edge.
    for a in range(5, 10):
        me.areas[a] = F
    for face in (0, 2):
        for rot in range(5):
            a = d.legal.add()
            a.planet.place.tile, a.planet.place.face, a.planet.place.rotation = 7, face, rot
            d.legal_notation.append(f"tile 7 face {face} rot {rot}")
    return d


def neighbours():
    # A toy adjacency: area 0 (face 0, edge 0) touches area 5 (face 1, edge 0); the rest stay on
    # their own face.
    n = [[f * 5 + (e + 1) % 5, f * 5 + (e + 4) % 5] for f in range(12) for e in range(5)]
    n[0] = n[0] + [5]
    n[5] = n[5] + [0]
    return n


class StrategyTest(unittest.TestCase):
    def test_planet_grows_the_objective_region(self):
        d = planet_decision()
        i = PlanetBot(neighbours(), log=lambda m: None).act(d)
        p = d.legal[i].planet.place
        # Forest must land on area 0, next to the forest of face 1 (rotation 0, 3 or 4 on face
        # 0), making one forest of 8 areas.
        self.assertEqual(p.face, 0)
        self.assertIn(p.rotation, (0, 3, 4))

    def test_planet_is_deterministic(self):
        bot = PlanetBot(neighbours(), log=lambda m: None)
        self.assertEqual(bot.act(planet_decision()), bot.act(planet_decision()))

    def test_unknown_arm_plays_by_index(self):
        resp = arena_pb2.PlayResponse()
        resp.decision.ParseFromString(UNKNOWN_ARM)
        d = resp.decision
        self.assertIsNone(d.observation.WhichOneof("game"))
        logs = []
        bot = AutoBot(seed=3, log=logs.append)
        self.assertIn(bot.act(d), (0, 1))
        self.assertIn(bot.act(d), (0, 1))
        self.assertEqual(len(logs), 1, logs)
        self.assertIn("no game arm this client knows", logs[0])

    def test_game_without_typed_strategy_plays_by_index(self):
        d = arena_pb2.Decision(decision_id="d9", legal_notation=["pass", "move"])
        d.observation.icetraders.seat = 0
        getattr(d.legal.add().icetraders, "pass").SetInParent()
        d.legal.add().icetraders.move.ship_id = 1
        self.assertIn(AutoBot(log=lambda m: None).act(d), (0, 1))

    def test_index_bot_is_seeded(self):
        d = arena_pb2.Decision(legal_notation=[str(i) for i in range(50)])
        a = [IndexBot(5).act(d) for _ in range(3)]
        self.assertEqual(a, [IndexBot(5).act(d)] * 3)

    def test_answer_forms(self):
        d = arena_pb2.Decision(decision_id="d4", match_id="m1")
        self.assertEqual(answer_for(d, 2).legal_index, 2)
        self.assertEqual(answer_for(d, "pass").notation, "pass")
        act = arena_pb2.Action()
        getattr(act.icetraders, "pass").SetInParent()
        ans = answer_for(d, act)
        self.assertEqual(ans.WhichOneof("choice"), "action")
        self.assertEqual((ans.decision_id, ans.match_id), ("d4", "m1"))

    def test_a_noted_choice_carries_its_note(self):
        d = arena_pb2.Decision(decision_id="d4", match_id="m1")
        ans = answer_for(d, Noted(2, "north site: +3 production"))
        self.assertEqual((ans.legal_index, ans.note), (2, "north site: +3 production"))
        self.assertEqual(answer_for(d, Noted("pass", 7)).notation, "pass")
        self.assertEqual(answer_for(d, 2).note, "")


if __name__ == "__main__":
    unittest.main()
