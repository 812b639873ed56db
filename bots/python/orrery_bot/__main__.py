"""Command line: python3 -m orrery_bot {play,create,games} ... (run from bots/python)."""

import argparse
import os
import sys

import grpc

from orrery.v1 import arena_pb2, arena_pb2_grpc

from . import AutoBot, GaveUp, LadderPlayer, Player, Tracer, channel


def log(msg):
    print(f"orrery_bot: {msg}", file=sys.stderr, flush=True)


def cmd_play(args):
    token = args.token or os.environ.get("ORRERY_TOKEN", "")
    if not token:
        log("a seat token is required: --token T or the environment variable ORRERY_TOKEN")
        return 2
    games = {}
    if not args.index_only:
        try:  # the catalog gives the typed strategies their static data (Planet's geometry)
            with channel(args.server) as ch:
                stub = arena_pb2_grpc.ArenaServiceStub(ch)
                games = {g.name: g for g in stub.ListGames(arena_pb2.ListGamesRequest(), timeout=10).games}
        except grpc.RpcError as err:
            log(f"ListGames failed ({err.code().name}: {err.details()}); typed strategies run without the catalog")
    bot = AutoBot(seed=args.seed, games=games, log=log, typed=not args.index_only, notes=args.notes)
    trace = None
    if args.trace:
        trace = Tracer(sys.stdout if args.trace == "-" else open(args.trace, "w"))
    player = Player(args.server, token, bot, log=log, trace=trace, probe_reject=args.probe_reject,
                    reconnects=args.reconnects)
    try:
        ended = player.play()
    except grpc.RpcError as err:
        log(f"the server refused the stream: {err.code().name}: {err.details()}")
        return 1
    except GaveUp as err:
        log(str(err))
        return 1
    except KeyboardInterrupt:
        return 130
    res = ended.result
    log(f"match {ended.match_id} ended ({arena_pb2.EndReason.Name(res.reason)}): seat {ended.seat} "
        f"rank {res.ranks[ended.seat] if ended.seat < len(res.ranks) else '?'}; ranks {list(res.ranks)}, "
        f"scores {list(res.scores)}: {res.detail}")
    log(f"decisions {player.decisions}, rejections {player.rejections}, rejoins {player.rejoins}")
    return 0


def cmd_ladder(args):
    key = args.key or os.environ.get("ORRERY_API_KEY", "")
    if not key:
        log("an API key is required: --key K or the environment variable ORRERY_API_KEY (orrery bot register NAME prints one)")
        return 2
    games = {}
    if not args.index_only:
        try:
            with channel(args.server) as ch:
                stub = arena_pb2_grpc.ArenaServiceStub(ch)
                games = {g.name: g for g in stub.ListGames(arena_pb2.ListGamesRequest(), timeout=10).games}
        except grpc.RpcError as err:
            log(f"ListGames failed ({err.code().name}: {err.details()}); typed strategies run without the catalog")
    counter = [0]

    def new_bot(match_id):
        counter[0] += 1
        return AutoBot(seed=args.seed + counter[0], games=games, log=log, typed=not args.index_only)

    trace = None
    if args.trace:
        trace = Tracer(sys.stdout if args.trace == "-" else open(args.trace, "w"))
    player = LadderPlayer(args.server, key, new_bot, games=[g for g in args.games.split(",") if g],
                          max_matches=args.max_matches, tournaments_only=args.tournaments_only,
                          matches=args.matches, log=log, trace=trace, reconnects=args.reconnects)
    try:
        ended = player.play()
    except grpc.RpcError as err:
        log(f"the server refused the ladder stream: {err.code().name}: {err.details()}")
        return 1
    except GaveUp as err:
        log(str(err))
        return 1
    except KeyboardInterrupt:
        return 130
    log(f"left the ladder after {len(ended)} matches: decisions {player.decisions}, "
        f"rejections {player.rejections}, rejoins {player.rejoins}")
    return 0


def cmd_create(args):
    req = arena_pb2.CreateMatchRequest(game=args.game, seats=args.seats)
    for opt in args.option:
        k, sep, v = opt.partition("=")
        if not sep or not k:
            log(f"--option {opt!r}: want name=value")
            return 2
        req.options[k] = v
    if args.per_move:
        req.clock.per_move.FromMilliseconds(int(args.per_move * 1000))
    if args.seed is not None:
        req.seed = args.seed
    try:
        with channel(args.server) as ch:
            resp = arena_pb2_grpc.ArenaServiceStub(ch).CreateMatch(req, timeout=10)
    except grpc.RpcError as err:
        log(f"CreateMatch: {err.code().name}: {err.details()}")
        return 1
    print(f"match {resp.match_id}")
    for s in resp.seats:
        print(f"seat {s.seat} {s.token}")
    # The creator's own proof: `orrery matches --abort ID --tokens FILE` takes this line
    # alone; keep it, never give it to a seat.
    if resp.creator_token:
        print(f"creator {resp.creator_token}")
    return 0


def cmd_games(args):
    try:
        with channel(args.server) as ch:
            resp = arena_pb2_grpc.ArenaServiceStub(ch).ListGames(arena_pb2.ListGamesRequest(), timeout=10)
    except grpc.RpcError as err:
        log(f"ListGames: {err.code().name}: {err.details()}")
        return 1
    for g in resp.games:
        print(f"{g.name}\t{g.title}\t{g.min_seats}-{g.max_seats} seats")
    return 0


SERVER_HELP = ("arena address (default 127.0.0.1:7070), before or after the command; the nodes of a cluster "
               "as ADDR,ADDR,...: a dropped stream rejoins through the next")


def parser():
    """The command line: --server goes before or after the command; a usage error exits 2."""
    # Installed, it runs as orrery-bot; from a checkout, as python3 -m orrery_bot.
    prog = "/usr/bin/python3 -m orrery_bot" if sys.argv[0].endswith("__main__.py") else os.path.basename(sys.argv[0])
    p = argparse.ArgumentParser(prog=prog, description="Play Orrery matches from Python.")
    p.add_argument("--server", default="127.0.0.1:7070", help=SERVER_HELP)
    sub = p.add_subparsers(dest="cmd", required=True)

    def command(name, **kw):
        c = sub.add_parser(name, **kw)
        # SUPPRESS: given after the command it overrides the top level's; not given, it leaves it.
        c.add_argument("--server", default=argparse.SUPPRESS, help=SERVER_HELP)
        return c

    play = command("play", help="play one seat until the match ends")
    play.add_argument("--token", help="the seat token (or set ORRERY_TOKEN, which keeps it out of ps)")
    play.add_argument("--seed", type=int, default=1, help="seed of the by-index strategy (default 1)")
    play.add_argument("--index-only", action="store_true", help="never use a typed strategy")
    play.add_argument("--trace", metavar="FILE", help="write every stream message as a JSON line (- for stdout); tokens are redacted")
    play.add_argument("--probe-reject", action="store_true", help="answer the first decision with an illegal index, to exercise the rejection fallback")
    play.add_argument("--notes", action="store_true", help="note on each answer which strategy chose it (kept with the step: the seat reads it while the match runs, everyone in the replay)")
    play.add_argument("--reconnects", type=int, default=20, help="consecutive failed rejoins before giving up (negative: never)")
    play.set_defaults(fn=cmd_play)

    lad = command("ladder", help="play a registered bot's ladder and tournament matches on one stream")
    lad.add_argument("--key", help="the bot's API key (or set ORRERY_API_KEY, which keeps it out of ps)")
    lad.add_argument("--games", default="", help="comma-separated games to queue for (default: every game)")
    lad.add_argument("--max-matches", type=int, default=1, help="ladder matches at once (default 1)")
    lad.add_argument("--tournaments-only", action="store_true", help="play only server-run tournaments, not the ladder")
    lad.add_argument("--matches", type=int, default=0, help="leave after this many matches have ended (default 0: stay)")
    lad.add_argument("--seed", type=int, default=1, help="seed of the by-index strategy (default 1)")
    lad.add_argument("--index-only", action="store_true", help="never use a typed strategy")
    lad.add_argument("--trace", metavar="FILE", help="write every stream message as a JSON line (- for stdout)")
    lad.add_argument("--reconnects", type=int, default=20, help="consecutive failed rejoins before giving up (negative: never)")
    lad.set_defaults(fn=cmd_ladder)

    create = command("create", help="create a match and print its seat tokens and its creator token")
    create.add_argument("--game", required=True)
    create.add_argument("--seats", type=int, required=True)
    create.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    create.add_argument("--per-move", type=float, metavar="SECONDS", help="per-move time budget")
    create.add_argument("--seed", type=int)
    create.set_defaults(fn=cmd_create)

    games = command("games", help="list the games")
    games.set_defaults(fn=cmd_games)

    return p


def main(argv=None):
    p = parser()
    args = p.parse_args(argv)
    if not any(a.strip() for a in args.server.split(",")):
        p.error("--server names no address")
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
