"""A vector environment with Gymnasium's reset(seed)/step(actions) shapes (VectorEnv)."""

import os

import grpc
import numpy as np

from orrery.v1 import training_pb2

from . import spaces
from .stream import CHANNEL_OPTIONS, Stream

# Masks wider than this are left out of info (IceTraders has 270,833 ids): action_masks()
# still builds them, and info always has the legal ids.
INFO_MASK_LIMIT = 1 << 16


class VectorEnv:
    """num_envs environments of one game, stepped together by the server.

    The trainer plays ``controlled_seats`` (every seat when empty: self-play, each step then
    for whichever seat acts); built-in ``opponents`` play the others in the server. Episodes
    reset automatically in the same step (Gymnasium's SAME_STEP autoreset): when one ends,
    ``terminated``/``truncated`` and the rewards are the ended episode's, and the observation is
    already the next episode's first. ``reward[i]`` is the reward of the seat that acted in
    environment i; ``info["rewards"]`` has every seat's.
    """

    metadata = {"autoreset_mode": "same-step"}

    def __init__(self, game, num_envs, seats, *, address="127.0.0.1:7070", options=None,
                 controlled_seats=(0,), opponents=("random",), max_episode_steps=0,
                 mcts_iterations=0, sparse=True, channel=None):
        self._channel = channel or grpc.insecure_channel(address, options=CHANNEL_OPTIONS)
        self._own_channel = channel is None
        self._open = training_pb2.OpenEnvironments(
            game=game, seats=seats, options=options or {}, controlled_seats=list(controlled_seats),
            opponents=list(opponents) if controlled_seats else [], max_episode_steps=max_episode_steps,
            mcts_iterations=mcts_iterations,
            observation_encoding=training_pb2.OBSERVATION_ENCODING_SPARSE if sparse
            else training_pb2.OBSERVATION_ENCODING_UNSPECIFIED)
        self.num_envs = num_envs
        self._stream, self._res = None, None
        # The spaces need the layout: open once with seeds 0.. and keep it for reset(seed=0).
        self.reset(seed=0)
        s = self._stream
        self.heads = s.heads
        self.single_observation_space = spaces.make_box(s.shape)
        self.single_action_space = spaces.make_action_space(s.heads)
        self.observation_space = spaces.batch(self.single_observation_space, num_envs)
        self.action_space = spaces.batch(self.single_action_space, num_envs)
        self.slices = s.slices

    def reset(self, *, seed=None, options=None):
        """Starts every environment afresh: environment i's first episode has seed + i."""
        if seed is None:
            seed = int.from_bytes(os.urandom(6), "little")
        if self._stream is not None:
            self._stream.close()
        req = training_pb2.OpenEnvironments()
        req.CopyFrom(self._open)
        req.seeds[:] = [seed + i for i in range(self.num_envs)]
        self._stream = Stream(self._channel, req)
        self._res = self._stream.first
        return self._res.observations, self._info(self._res)

    def step(self, actions):
        """actions: one id per environment (num_envs,), or one per head (num_envs, heads)."""
        acted = self._res.seats
        self._res = self._stream.step(actions)
        r = self._res
        reward = r.rewards[np.arange(self.num_envs), acted]
        return r.observations, reward, r.terminated, r.truncated, self._info(r)

    def _info(self, r):
        info = {"seat": r.seats, "rewards": r.rewards, "legal_ids": r.legal,
                "episode_seed": r.episode_seeds, "episode_steps": r.episode_steps}
        if int(self.heads_total()) <= INFO_MASK_LIMIT:
            info["action_mask"] = self.action_masks()
        return info

    def heads_total(self):
        return int(self._stream.heads.sum())

    def action_masks(self):
        """The legal mask of every environment: (num_envs, sum of heads) bools, each head's
        ids after the previous heads' (a flat Discrete mask for one head)."""
        offsets = np.concatenate([[0], np.cumsum(self._stream.heads)[:-1]])
        mask = np.zeros((self.num_envs, self.heads_total()), dtype=bool)
        for i, ids in enumerate(self._res.legal):
            mask[i, (ids + offsets).ravel()] = True
        return mask

    def legal_ids(self):
        """Each environment's legal actions: an array of shape (legal, heads)."""
        return self._res.legal

    def sample_legal(self, rng):
        """A uniformly random legal action in every environment, shaped as step takes it."""
        rows = np.stack([ids[rng.integers(len(ids))] for ids in self._res.legal])
        return rows[:, 0] if len(self._stream.heads) == 1 else rows

    def close(self):
        if self._stream is not None:
            self._stream.close()
            self._stream = None
        if self._own_channel:
            self._channel.close()
