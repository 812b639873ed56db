"""orrery_env and its example against a real TrainingService, whose address is in ORRERY_TRAIN_ADDR.

The Go test service/training/python_test.go starts the service and runs this file:
    ORRERY_TRAIN_ADDR=127.0.0.1:PORT /usr/bin/python3 -m unittest discover -s tests -p 'test_env.py'
"""

import os
import unittest

import numpy as np

from orrery_env import AECEnv, VectorEnv

ADDR = os.environ.get("ORRERY_TRAIN_ADDR", "")

# Short episodes of every game, as the Go tests use them.
GAMES = [
    ("icetraders", 2, {"turn_cap": "20"}),
    ("planet", 2, {}),
    ("pantropia", 3, {"turn_cap": "20"}),
    ("fccatan", 3, {"round_seconds": "2", "tick_rate": "5", "top_speed_cm_s": "5000", "round_cap": "2"}),
]
ENVS = int(os.environ.get("ORRERY_TRAIN_ENVS", "64"))
STEPS = int(os.environ.get("ORRERY_TRAIN_STEPS", "2000"))


@unittest.skipUnless(ADDR, "set ORRERY_TRAIN_ADDR to a server with the TrainingService")
class VectorEnvTest(unittest.TestCase):
    def test_random_masked_steps_are_legal_and_every_episode_ends(self):
        for game, seats, options in GAMES:
            with self.subTest(game=game):
                env = VectorEnv(game, ENVS, seats, address=ADDR, options=options)
                rng = np.random.default_rng(1)
                obs, info = env.reset(seed=100)
                self.assertEqual(obs.shape, (ENVS,) + env.single_observation_space.shape)
                self.assertEqual(obs.dtype, np.float32)
                heads = env.heads
                started = np.ones(ENVS, dtype=np.int64)  # episodes begun per environment
                ended = np.zeros(ENVS, dtype=np.int64)
                offsets = np.concatenate([[0], np.cumsum(heads)[:-1]])
                for k in range(STEPS):
                    legal = env.legal_ids()
                    actions = env.sample_legal(rng)
                    rows = actions.reshape(ENVS, len(heads))
                    for i in range(ENVS):
                        # The chosen ids are one legal action's.
                        self.assertTrue((legal[i] == rows[i]).all(axis=1).any())
                    if k % 50 == 0:  # a dense mask of IceTraders is 64 x 270,833
                        mask = env.action_masks()
                        self.assertTrue(mask[np.arange(ENVS)[:, None], rows + offsets].all())
                        want = [len(np.unique(legal[i] + offsets)) for i in range(ENVS)]
                        self.assertEqual(mask.sum(axis=1).tolist(), want)
                    obs, reward, terminated, truncated, info = env.step(actions)
                    self.assertEqual(obs.shape[0], ENVS)
                    self.assertTrue(np.all(np.isfinite(obs)))
                    done = terminated | truncated
                    self.assertTrue(np.all(reward[~terminated] == 0))
                    self.assertTrue(np.allclose(info["rewards"][terminated].sum(axis=1), 0, atol=1e-5))
                    ended += done
                    started += done
                    self.assertTrue(np.all(info["episode_steps"][done] > 0))
                # Every environment finished episodes, and only its last one is still running.
                self.assertTrue(np.all(ended >= 1), f"{game}: environments with no episode ended: {np.flatnonzero(ended == 0)}")
                self.assertTrue(np.all(started - ended == 1))
                print(f"{game}: {ENVS} environments, {STEPS} steps, {int(ended.sum())} episodes ended")
                env.close()

    def test_same_seed_same_episodes(self):
        game, seats, options = GAMES[1]
        runs = []
        for _ in range(2):
            env = VectorEnv(game, 4, seats, address=ADDR, options=options, opponents=("greedy",))
            rng = np.random.default_rng(7)
            obs, _ = env.reset(seed=42)
            trace = [obs.copy()]
            for _ in range(40):
                obs, reward, *_ = env.step(env.sample_legal(rng))
                trace.append(obs.copy())
                trace.append(reward.copy())
            env.close()
            runs.append(trace)
        for a, b in zip(*runs):
            np.testing.assert_array_equal(a, b)

    def test_spaces(self):
        env = VectorEnv("fccatan", 2, 3, address=ADDR, options=GAMES[3][2])
        self.assertEqual(len(env.single_action_space.nvec), 5)
        self.assertEqual(env.action_space.shape, (2, 5))
        self.assertTrue(env.single_action_space.contains(env.sample_legal(np.random.default_rng(0))[0]))
        env.close()
        env = VectorEnv("planet", 2, 2, address=ADDR)
        self.assertEqual(env.single_action_space.n, 300)
        self.assertIn("action_mask", env.reset(seed=1)[1])
        env.close()


@unittest.skipUnless(ADDR, "set ORRERY_TRAIN_ADDR to a server with the TrainingService")
class AECEnvTest(unittest.TestCase):
    def test_self_play_episode(self):
        env = AECEnv("planet", 3, address=ADDR)
        env.reset(seed=5)
        rng = np.random.default_rng(5)
        seen, steps = set(), 0
        for agent in iter(lambda: env.agent_selection if env.agents else None, None):
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            seen.add(agent)
            legal = np.flatnonzero(obs["action_mask"])
            self.assertGreater(len(legal), 0)
            env.step(int(rng.choice(legal)))
            steps += 1
        self.assertEqual(seen, {"seat_0", "seat_1", "seat_2"})
        self.assertEqual(steps, 36)  # 12 turns, 3 seats
        env.close()

    def test_pettingzoo_api(self):
        try:
            from pettingzoo.test import api_test
        except ImportError:
            self.skipTest("pettingzoo is not installed")
        env = AECEnv("planet", 2, address=ADDR)
        api_test(env, num_cycles=30)
        env.close()


if __name__ == "__main__":
    unittest.main()


@unittest.skipUnless(ADDR, "set ORRERY_TRAIN_ADDR to a server with the TrainingService")
class ExampleTest(unittest.TestCase):
    def test_train_reinforce_runs_and_reports(self):
        import subprocess
        import sys
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        out = subprocess.run(
            [sys.executable, os.path.join(here, "examples", "train_reinforce.py"), "--addr", ADDR,
             "--games", "2000", "--report", "1000", "--envs", "16"],
            capture_output=True, text=True, timeout=600, check=True).stdout.splitlines()
        self.assertEqual(out[0], "games,minutes,win_rate")
        rows = [line.split(",") for line in out[1:3]]
        self.assertEqual([r[0] for r in rows], ["1000", "2000"])
        for _, minutes, rate in rows:
            self.assertGreaterEqual(float(minutes), 0)
            self.assertTrue(0 <= float(rate) <= 1)
        self.assertTrue(out[-1].startswith("# 2"), out[-1])
