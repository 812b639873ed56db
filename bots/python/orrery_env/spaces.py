"""Spaces described as Gymnasium describes them, on numpy alone.

When gymnasium is installed, ``make_*`` return its own ``gymnasium.spaces`` objects, so its
API checkers see what they expect; without it these small classes hold the same attributes
(``shape``, ``dtype``, ``n``, ``nvec``, ``low``, ``high``, ``spaces``) and a ``sample``.
"""

import numpy as np

try:  # pragma: no cover - depends on the machine
    import gymnasium.spaces as _gym
except ImportError:  # the usual case: numpy only
    _gym = None


class Box:
    """A box of float32 values, as gymnasium.spaces.Box."""

    def __init__(self, low, high, shape, dtype=np.float32):
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)
        self.low = np.full(self.shape, low, dtype=self.dtype)
        self.high = np.full(self.shape, high, dtype=self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all(x >= self.low) and np.all(x <= self.high))

    def sample(self, rng=None):
        rng = rng or np.random.default_rng()
        return rng.uniform(self.low, self.high).astype(self.dtype)

    def __repr__(self):
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"


class Discrete:
    """Ids 0..n-1, as gymnasium.spaces.Discrete; sample takes a mask as Gymnasium's does."""

    def __init__(self, n):
        self.n, self.shape, self.dtype = int(n), (), np.dtype(np.int64)

    def contains(self, x):
        return 0 <= int(x) < self.n

    def sample(self, mask=None, rng=None):
        rng = rng or np.random.default_rng()
        if mask is None:
            return int(rng.integers(self.n))
        return int(rng.choice(np.flatnonzero(mask)))

    def __repr__(self):
        return f"Discrete({self.n})"


class MultiDiscrete:
    """One id per head, as gymnasium.spaces.MultiDiscrete."""

    def __init__(self, nvec):
        self.nvec = np.asarray(nvec, dtype=np.int64)
        self.shape, self.dtype = self.nvec.shape, np.dtype(np.int64)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all(x >= 0) and np.all(x < self.nvec))

    def sample(self, mask=None, rng=None):
        rng = rng or np.random.default_rng()
        if mask is None:
            return rng.integers(self.nvec).astype(self.dtype)
        return np.array([rng.choice(np.flatnonzero(m)) for m in mask], dtype=self.dtype)

    def __repr__(self):
        return f"MultiDiscrete({self.nvec.tolist()})"


class MultiBinary:
    """A vector of 0/1, as gymnasium.spaces.MultiBinary (the action mask)."""

    def __init__(self, n):
        self.n, self.shape, self.dtype = int(n), (int(n),), np.dtype(np.int8)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all((x == 0) | (x == 1)))

    def sample(self, rng=None):
        rng = rng or np.random.default_rng()
        return rng.integers(0, 2, self.shape).astype(self.dtype)

    def __repr__(self):
        return f"MultiBinary({self.n})"


class Dict:
    """Named spaces, as gymnasium.spaces.Dict (PettingZoo's observation with action_mask)."""

    def __init__(self, spaces):
        self.spaces = dict(spaces)
        self.shape, self.dtype = None, None

    def __getitem__(self, key):
        return self.spaces[key]

    def contains(self, x):
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(
            s.contains(x[k]) for k, s in self.spaces.items())

    def sample(self, rng=None):
        return {k: s.sample(rng=rng) for k, s in self.spaces.items()}

    def __repr__(self):
        return f"Dict({self.spaces!r})"


def make_box(shape, low=-np.inf, high=np.inf):
    if _gym:
        return _gym.Box(low, high, tuple(shape), np.float32)
    return Box(low, high, shape)


def make_action_space(heads):
    """Discrete for one head, MultiDiscrete for several (Full-Contact Catan)."""
    if len(heads) == 1:
        return _gym.Discrete(int(heads[0])) if _gym else Discrete(heads[0])
    return _gym.MultiDiscrete(list(heads)) if _gym else MultiDiscrete(heads)


def make_mask_space(n):
    return _gym.MultiBinary(int(n)) if _gym else MultiBinary(n)


def make_dict(spaces):
    return _gym.Dict(spaces) if _gym else Dict(spaces)


def batch(space, n):
    """The space of n stacked values of space, as gymnasium.vector.utils.batch_space."""
    if isinstance(space, (Discrete,)) or (_gym and isinstance(space, _gym.Discrete)):
        return make_nvec([space.n] * n)
    if isinstance(space, MultiDiscrete) or (_gym and isinstance(space, _gym.MultiDiscrete)):
        return make_nvec(np.tile(np.asarray(space.nvec), (n, 1)))
    return make_box((n,) + tuple(space.shape), space.low.min(), space.high.max())


def make_nvec(nvec):
    return _gym.MultiDiscrete(nvec) if _gym else MultiDiscrete(nvec)
