"""An environment in PettingZoo's AEC (agent-environment cycle) style, for self-play."""

import grpc
import numpy as np

from orrery.v1 import training_pb2

from . import spaces
from .stream import CHANNEL_OPTIONS, Stream


class AECEnv:
    """One match at a time, every seat an agent (``seat_0``, ``seat_1``, ...).

    The agent to act is ``agent_selection``; ``observe(agent)`` is
    ``{"observation", "action_mask"}``: the tensor of that agent's latest decision and, for the
    agent to act, its legal mask. As in PettingZoo, rewards arrive at the episode's end, after
    which every agent is done and steps with None until none is left.
    """

    metadata = {"name": "orrery_v1", "is_parallelizable": False}

    def __init__(self, game, seats, *, address="127.0.0.1:7070", options=None,
                 max_episode_steps=0, channel=None):
        self._channel = channel or grpc.insecure_channel(address, options=CHANNEL_OPTIONS)
        self._own_channel = channel is None
        self._open = training_pb2.OpenEnvironments(game=game, seats=seats, options=options or {},
                                                   max_episode_steps=max_episode_steps,
                                                   observation_encoding=training_pb2.OBSERVATION_ENCODING_SPARSE)
        self.possible_agents = [f"seat_{i}" for i in range(seats)]
        self._stream = None
        self.reset(seed=0)
        s = self._stream
        self._heads = s.heads
        self._offsets = np.concatenate([[0], np.cumsum(s.heads)[:-1]])
        obs_space = spaces.make_dict({
            "observation": spaces.make_box(s.shape),
            "action_mask": spaces.make_mask_space(int(s.heads.sum())),
        })
        act_space = spaces.make_action_space(s.heads)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    def reset(self, seed=None, options=None):
        if self._stream is not None:
            self._stream.close()
        req = training_pb2.OpenEnvironments()
        req.CopyFrom(self._open)
        req.seeds[:] = [0 if seed is None else seed]
        self._stream = Stream(self._channel, req)
        size = self._stream.size
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._last = {a: np.zeros(self._stream.shape, dtype=np.float32) for a in self.agents}
        self._size = size
        self._take(self._stream.first)

    def _take(self, r):
        seat = int(r.seats[0])
        self.agent_selection = self.possible_agents[seat]
        self._last[self.agent_selection] = r.observations[0]
        self._legal = r.legal[0]
        self.infos[self.agent_selection] = {"legal_ids": self._legal}

    def observe(self, agent):
        mask = np.zeros(int(self._heads.sum()), dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[(self._legal + self._offsets).ravel()] = 1
        return {"observation": self._last[agent], "action_mask": mask}

    def last(self, observe=True):
        a = self.agent_selection
        return (self.observe(a) if observe else None, self._cumulative_rewards[a],
                self.terminations[a], self.truncations[a], self.infos[a])

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} is done: step(None) until every agent is")
            self.agents.remove(agent)
            del self.rewards[agent]
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self._cumulative_rewards[agent] = 0.0
        ids = np.asarray(action, dtype=np.int64).reshape(1, len(self._heads))
        r = self._stream.step(ids)
        for a in self.agents:
            self.rewards[a] = 0.0
        if r.terminated[0] or r.truncated[0]:
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(r.rewards[0, i])
                self.terminations[a], self.truncations[a] = bool(r.terminated[0]), bool(r.truncated[0])
            # The stream has already started the next episode; this env waits for reset().
        else:
            self._take(r)
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]

    def render(self):
        return None

    def close(self):
        if self._stream is not None:
            self._stream.close()
            self._stream = None
        if self._own_channel:
            self._channel.close()
