"""One Train stream of the TrainingService: open a batch, step it, decode its results."""

import queue

import grpc
import numpy as np

from orrery.v1 import training_pb2, training_pb2_grpc

# A step's results hold every environment's tensor: lift gRPC's 4 MiB default.
CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", -1),
    ("grpc.max_send_message_length", -1),
]

_END = object()


class Stream:
    """A batch of environments on one bidirectional Train stream."""

    def __init__(self, channel, open_request):
        self._requests = queue.Queue()
        self._requests.put(training_pb2.TrainRequest(open=open_request))
        self._responses = training_pb2_grpc.TrainingServiceStub(channel).Train(iter(self._next, _END))
        self.sparse = open_request.observation_encoding == training_pb2.OBSERVATION_ENCODING_SPARSE
        spec = next(self._responses).spec
        self.spec = spec
        self.num_envs, self.seats = spec.environments, spec.seats
        self.shape = tuple(spec.observation_shape)
        self.size = int(np.prod(self.shape))
        self.heads = np.asarray(spec.action_heads, dtype=np.int64)
        self.slices = {s.name: (s.offset, tuple(s.shape)) for s in spec.slices}
        self.first = Results(spec.first, self)

    def _next(self):
        return self._requests.get()

    def step(self, action_ids):
        """Sends one action per environment (ids, one per head) and returns the Results."""
        ids = np.ascontiguousarray(action_ids, dtype="<i4").reshape(self.num_envs, len(self.heads))
        step = training_pb2.StepEnvironments(action_ids=ids.tobytes())
        self._requests.put(training_pb2.TrainRequest(step=step))
        return Results(next(self._responses).results, self)

    def close(self):
        self._requests.put(_END)
        try:
            for _ in self._responses:
                pass
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.CANCELLED:
                raise


class Results:
    """One StepResults as numpy arrays."""

    def __init__(self, r, stream):
        n, size, h = stream.num_envs, stream.size, len(stream.heads)
        if stream.sparse:
            obs = np.zeros(n * size, dtype=np.float32)
            nz = np.asarray(r.observation_nonzeros, dtype=np.int64)
            idx = np.frombuffer(r.observation_indices, dtype="<i4")
            base = np.repeat(np.arange(n, dtype=np.int64) * size, nz)
            obs[base + idx] = np.frombuffer(r.observations, dtype="<f4")
        else:
            obs = np.frombuffer(r.observations, dtype="<f4").copy()
        self.observations = obs.reshape((n,) + stream.shape)
        self.seats = np.asarray(r.seats, dtype=np.int64)
        counts = np.asarray(r.legal_counts, dtype=np.int64)
        ids = np.frombuffer(r.legal_ids, dtype="<i4").reshape(-1, h)
        # legal[i] is environment i's legal actions, one row of ids (one per head) each.
        self.legal = np.split(ids, np.cumsum(counts)[:-1])
        self.rewards = np.frombuffer(r.rewards, dtype="<f4").reshape(n, stream.seats)
        self.terminated = np.frombuffer(r.terminated, dtype=np.uint8).astype(bool)
        self.truncated = np.frombuffer(r.truncated, dtype=np.uint8).astype(bool)
        self.episode_seeds = np.asarray(r.episode_seeds, dtype=np.uint64)
        self.episode_steps = np.asarray(r.episode_steps, dtype=np.int64)
