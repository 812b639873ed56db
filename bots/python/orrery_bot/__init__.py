"""orrery_bot plays Orrery matches from Python: see bots/python/README.md."""

from .client import GaveUp, Player, Tracer, answer_for
from .strategies import AutoBot, IndexBot, PlanetBot, planet_neighbours

__all__ = ["AutoBot", "GaveUp", "IndexBot", "PlanetBot", "Player", "Tracer", "answer_for",
           "planet_neighbours", "channel"]


def channel(target):
    """An insecure channel to an arena that retries a lost server every few seconds at most.

    gRPC's own reconnect backoff grows to two minutes by default, far longer than a server
    restart takes.
    """
    import grpc

    return grpc.insecure_channel(target, options=[
        ("grpc.initial_reconnect_backoff_ms", 100),
        ("grpc.min_reconnect_backoff_ms", 100),
        ("grpc.max_reconnect_backoff_ms", 2000),
    ])
