"""Train a linear softmax policy by REINFORCE against the random bot, on Planet.

Numpy only. Start a server (``orrery serve``), then from the repository root:

    PYTHONPATH=bots/python /usr/bin/python3 bots/python/examples/train_reinforce.py --games 20000

Every --report games it prints the games played, the minutes taken and the win rate of the
trained seat over those games (a draw is not a win), as CSV.

The policy is pi(a|s) proportional to exp(theta . phi(s, a)), linear in features of each
action that it reads from the observation tensor by the slices docs/training.md names: for
the displayed tile an action takes (ids are display slot x 60 + face x 5 + rotation), its
habitats crossed with the seat's objective habitat and with the habitats the animals of this
turn and the next ask for. REINFORCE follows the gradient of log pi, phi(s, a) - E_pi phi(s, .),
scaled by the episode's return less a running baseline.
"""

import argparse
import time

import numpy as np

from orrery_env import VectorEnv

HABITATS = 5
SLOTS, PER_SLOT = 5, 60  # display slots; faces x rotations of one slot's tile


class SlotFeatures:
    """phi(s, a) for every display slot of a batch of Planet observations."""

    def __init__(self, slices):
        self.turn = slices["turn"][0]
        self.objective = slices["objective"][0]  # block 0: the viewer's own
        self.display, self.display_shape = slices["display"]  # [5 slots, 5 areas, 5 habitats]
        self.columns, self.columns_shape = slices["columns"]  # [10 turns, 5 habitats x 11 + 1]
        self.size = HABITATS * HABITATS * 2 + HABITATS + 1

    def __call__(self, obs):
        n = len(obs)
        flat = obs.reshape(n, -1)
        own = flat[:, self.objective:self.objective + HABITATS]  # ocean..glacier
        tiles = flat[:, self.display:self.display + int(np.prod(self.display_shape))].reshape((n,) + self.display_shape)
        habitats = tiles.sum(axis=2) / 5  # [n, slot, habitat]: share of the tile's areas
        present = tiles.sum(axis=(2, 3)) > 0  # the slot holds a tile
        cols = flat[:, self.columns:self.columns + int(np.prod(self.columns_shape))].reshape((n,) + self.columns_shape)
        turn = flat[:, self.turn:self.turn + 12].argmax(axis=1) + 1
        now = np.clip(turn - 3, 0, 9)
        ask = cols[np.arange(n), now, :HABITATS * 11].reshape(n, HABITATS, 11).sum(axis=2)
        nxt = cols[np.arange(n), np.clip(now + 1, 0, 9), :HABITATS * 11].reshape(n, HABITATS, 11).sum(axis=2)
        demand = ask + 0.5 * nxt
        f = np.concatenate([
            (habitats[:, :, :, None] * own[:, None, None, :]).reshape(n, SLOTS, -1),
            (habitats[:, :, :, None] * demand[:, None, None, :]).reshape(n, SLOTS, -1),
            habitats,
            present[:, :, None].astype(np.float32),
        ], axis=2)
        return f  # [n, slot, features]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--addr", default="127.0.0.1:7070")
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--report", type=int, default=1000)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    env = VectorEnv("planet", args.envs, 2, address=args.addr, controlled_seats=(0,), opponents=("random",))
    phi = SlotFeatures(env.slices)
    rng = np.random.default_rng(args.seed)
    theta = np.zeros(phi.size)
    baseline = 0.0
    # Per environment, each step's gradient of log pi at the action taken.
    traj = [[] for _ in range(args.envs)]
    obs, _ = env.reset(seed=args.seed)
    games = wins = window_games = window_wins = 0
    start = time.monotonic()
    print("games,minutes,win_rate", flush=True)
    while games < args.games:
        f = phi(obs)  # [n, slot, d]
        mask = env.action_masks()  # [n, 300]
        logits = np.repeat(f @ theta, PER_SLOT, axis=1)  # one logit per id, its slot's
        logits = np.where(mask, logits, -np.inf)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        actions = np.array([rng.choice(len(q), p=q) for q in p])
        slot_p = p.reshape(args.envs, SLOTS, PER_SLOT).sum(axis=2)  # [n, slot]
        expected = np.einsum("ns,nsd->nd", slot_p, f)
        chosen = f[np.arange(args.envs), actions // PER_SLOT]
        for i in range(args.envs):
            traj[i].append(chosen[i] - expected[i])
        obs, reward, terminated, truncated, _ = env.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            ret = float(reward[i]) if terminated[i] else 0.0
            theta += args.lr * (ret - baseline) * np.sum(traj[i], axis=0)
            baseline += 0.01 * (ret - baseline)
            traj[i] = []
            games += 1
            window_games += 1
            wins += ret > 0
            window_wins += ret > 0
            if window_games == args.report:
                print(f"{games},{(time.monotonic() - start) / 60:.2f},{window_wins / window_games:.3f}", flush=True)
                window_games = window_wins = 0
    env.close()
    print(f"# {games} games, win rate {wins / games:.3f} overall", flush=True)


if __name__ == "__main__":
    main()
