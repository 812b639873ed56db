"""Train a linear softmax policy by REINFORCE against the random bot, on Planet or IceTraders.

Numpy only. Start a server with the TrainingService (``orrery serve``), then from the
repository root:

    PYTHONPATH=bots/python /usr/bin/python3 bots/python/examples/train_reinforce.py --games 20000

It prints, every --report games, the games played, the minutes taken and the win rate of the
trained seat over those games. The policy is linear in the observation tensor plus, for
Planet, one cross of features the tensor layout names (docs/training.md): the seat's objective
habitat times the habitats of each tile on display, so that "take the tile of my habitat"
is a weight.
"""

import argparse
import time

import numpy as np

from orrery_env import VectorEnv


def features_fn(env, game):
    """The policy's features of a batch of observations: the tensor, a cross, and a bias."""
    if game != "planet":
        return lambda obs: np.concatenate([obs.reshape(len(obs), -1), np.ones((len(obs), 1), np.float32)], axis=1)
    obj_at, obj_shape = env.slices["objective"]
    disp_at, disp_shape = env.slices["display"]  # [5 slots, 5 areas, 6 habitats]

    def features(obs):
        n = len(obs)
        flat = obs.reshape(n, -1)
        own = flat[:, obj_at:obj_at + obj_shape[1]]  # block 0 is the viewer's own objective
        display = flat[:, disp_at:disp_at + int(np.prod(disp_shape))].reshape((n,) + disp_shape)
        habitats = display.sum(axis=2)  # areas of each habitat on each displayed tile
        cross = (own[:, None, :, None] * habitats[:, :, None, :]).reshape(n, -1)
        return np.concatenate([flat, cross, np.ones((n, 1), np.float32)], axis=1)

    return features


def masked_softmax(logits, mask):
    z = np.where(mask, logits, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--addr", default="127.0.0.1:7070")
    ap.add_argument("--game", default="planet", choices=["planet", "icetraders"])
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--report", type=int, default=1000)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    options = {"turn_cap": "40"} if args.game == "icetraders" else {}
    env = VectorEnv(args.game, args.envs, 2, address=args.addr, options=options,
                    controlled_seats=(0,), opponents=("random",))
    if len(env.heads) != 1:
        raise SystemExit("this example plays one-head games")
    n_actions = int(env.heads[0])
    if n_actions > 4096:
        raise SystemExit(f"{args.game} has {n_actions} action ids: too many for a linear policy over them")
    features = features_fn(env, args.game)
    rng = np.random.default_rng(args.seed)
    obs, _ = env.reset(seed=args.seed)
    phi = features(obs)
    weights = np.zeros((phi.shape[1], n_actions), dtype=np.float64)
    baseline = 0.0
    traj = [[] for _ in range(args.envs)]  # per environment: (features, action, probabilities)
    games, wins, window_games, window_wins = 0, 0, 0, 0
    start = time.monotonic()
    print("games,minutes,win_rate")
    while games < args.games:
        mask = env.action_masks()
        # The tensors are mostly zeros: each environment's logits read only the weight rows of
        # its nonzero features, which keeps this fast on Debian's reference BLAS.
        nonzero = [np.flatnonzero(f) for f in phi]
        logits = np.stack([phi[i, nz] @ weights[nz] for i, nz in enumerate(nonzero)])
        probs = masked_softmax(logits, mask)
        actions = np.array([rng.choice(n_actions, p=p) for p in probs])
        for i in range(args.envs):
            traj[i].append((nonzero[i], phi[i, nonzero[i]], actions[i], probs[i]))
        obs, reward, terminated, truncated, _ = env.step(actions)
        # Each ended episode: the gradient of log pi(a|s) of a linear softmax is
        # phi (onehot(a) - pi), scaled by the return less a running baseline.
        for i in np.flatnonzero(terminated | truncated):
            ret = float(reward[i]) if terminated[i] else 0.0
            advantage = ret - baseline
            baseline += 0.01 * (ret - baseline)
            for nz, f, a, p in traj[i]:
                g = -p
                g[a] += 1.0
                weights[nz] += (args.lr * advantage) * np.outer(f, g)
            traj[i] = []
            games += 1
            window_games += 1
            win = ret > 0
            wins += win
            window_wins += win
            if window_games == args.report:
                minutes = (time.monotonic() - start) / 60
                print(f"{games},{minutes:.2f},{window_wins / window_games:.3f}", flush=True)
                window_games, window_wins = 0, 0
        phi = features(obs)
    env.close()
    print(f"# {games} games, overall win rate {wins / games:.3f}")


if __name__ == "__main__":
    main()
