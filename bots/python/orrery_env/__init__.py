"""orrery_env: Orrery's games as training environments (docs/training.md).

- ``VectorEnv``: num_envs environments stepped by the server's TrainingService in one message
  each way, with Gymnasium's ``reset(seed)``/``step(actions)`` shapes and spaces.
- ``AECEnv``: one match at a time in PettingZoo's agent-environment cycle, every seat an agent.

Both need only numpy and Debian's python3-grpcio; gymnasium and pettingzoo are optional (their
spaces are used when gymnasium is installed).
"""

from .aec import AECEnv
from .stream import Stream
from .vector import VectorEnv

__all__ = ["AECEnv", "Stream", "VectorEnv"]
