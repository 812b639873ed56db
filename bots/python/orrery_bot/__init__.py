"""orrery_bot plays Orrery matches from Python: see bots/python/README.md."""

from .client import NOTE_LIMIT, GaveUp, LadderPlayer, Noted, Player, Targets, Tracer, answer_for
from .strategies import AutoBot, IndexBot, PlanetBot, planet_neighbours

__all__ = ["AutoBot", "GaveUp", "IndexBot", "LadderPlayer", "NOTE_LIMIT", "Noted", "PlanetBot", "Player", "Targets", "Tracer", "answer_for",
           "planet_neighbours", "channel"]



def channel(target):
    """An insecure channel to an arena (for the unary calls; Player dials its own): the
    first address of ``target``, which may list several nodes of a cluster ("a,b,c")."""
    import grpc

    from .client import Targets

    return grpc.insecure_channel(Targets(target).current())
