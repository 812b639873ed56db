"""orrery_bot plays Orrery matches from Python: see bots/python/README.md."""

from .client import GaveUp, LadderPlayer, Player, Tracer, answer_for
from .strategies import AutoBot, IndexBot, PlanetBot, planet_neighbours

__all__ = ["AutoBot", "GaveUp", "IndexBot", "LadderPlayer", "PlanetBot", "Player", "Tracer", "answer_for",
           "planet_neighbours", "channel"]



def channel(target):
    """An insecure channel to an arena (for the unary calls; Player dials its own)."""
    import grpc

    return grpc.insecure_channel(target)
