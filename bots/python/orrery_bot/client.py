"""The Play stream: join a seat, answer decisions, survive rejections and dropped streams.

This is the Python twin of the Go SDK (bots/sdk/sdk.go): the same join, answer, fallback and
reconnect rules, so a bot is one object with an ``act`` method.
"""

import json
import queue
import sys
import threading
import time

import grpc
from google.protobuf import json_format

from orrery.v1 import arena_pb2, arena_pb2_grpc

from .backoff import Backoff

# Stream failures worth a rejoin: the network or the server going away, not a refusal. A bad
# token (UNAUTHENTICATED), an unknown match (NOT_FOUND), a malformed join (INVALID_ARGUMENT) or
# a newer stream for the same seat (ABORTED) will not get better by retrying.
RETRYABLE = frozenset({
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.INTERNAL,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
})


# What the decisions carry (docs/protocol.md, "Asking for less"): everything but the text,
# which these bots never read, quietly: no acceptances (the next decision says an answer was
# applied), the events riding on the decisions, one message a decision.
RECEIVE = arena_pb2.Receive(omit_text=True, quiet=True)


class Targets:
    """The addresses of one arena, or of the nodes of a cluster, tried in turn.

    Every node of a cluster answers every call (it relays a seat's stream to the node that
    runs its match), so a client given several addresses uses one, and moves to the next when
    that one fails the stream with UNAVAILABLE or closes it (the node died, is shutting down,
    or the match is moving to another node): the rejoin, after the backoff, goes there.
    ``target`` is one address, several separated by commas ("a:7070,b:7070"), or a list.
    """

    def __init__(self, target):
        if isinstance(target, str):
            addrs = [a.strip() for a in target.split(",") if a.strip()]
        else:
            addrs = [a for a in target if a]
        if not addrs:
            raise ValueError("no server address")
        self.addrs = addrs
        self._at = 0

    def current(self):
        """The address the next stream goes to."""
        return self.addrs[self._at]

    def failed(self, code):
        """Moves on to the next address after a failure with ``code`` there."""
        if code == grpc.StatusCode.UNAVAILABLE:
            self._at = (self._at + 1) % len(self.addrs)


class StreamClosed(Exception):
    """The server closed the stream before the match ended (treated like UNAVAILABLE)."""


class GaveUp(Exception):
    """Reconnecting failed too many times in a row."""


class _Requests:
    """The request side of one Play stream: a blocking iterator fed from the bot's thread."""

    def __init__(self):
        self._q = queue.Queue()

    def send(self, req):
        self._q.put(req)

    def close(self):
        self._q.put(None)

    def __iter__(self):
        return self

    def __next__(self):
        req = self._q.get()
        if req is None:
            raise StopIteration
        return req


class Tracer:
    """Writes every message of the stream as one JSON line, tokens redacted.

    The JSON is protobuf's canonical mapping, the same that grpcurl prints.
    """

    def __init__(self, out):
        self._out = out
        self._lock = threading.Lock()

    def __call__(self, direction, msg):
        body = json_format.MessageToDict(msg)
        join = body.get("join")
        if join and "token" in join:
            join["token"] = "<redacted>"
        with self._lock:
            if self._out is None:
                return
            try:
                self._out.write(json.dumps({"dir": direction, "msg": body}) + "\n")
                self._out.flush()
            except OSError as err:  # a closed pipe or a full disk stops the trace, not the game
                print(f"orrery_bot: trace stopped: {err}", file=sys.stderr, flush=True)
                self._out = None


NOTE_LIMIT = 1024
"""The longest note the server keeps, in bytes (UTF-8); it cuts a longer one and marks the cut."""


class Noted:
    """A choice with a debug note, kept with the step in the replay (shown only to this seat
    while the match runs, to everyone once it has ended). A bot's ``act`` returns one in place
    of its choice: ``return Noted(best, f"site {site}: +{gain} production")``."""

    __slots__ = ("choice", "note")

    def __init__(self, choice, note):
        self.choice = choice
        self.note = str(note)


def answer_for(decision, choice):
    """Turns what a bot returned (an index, a typed Action, notation, or any of them Noted)
    into an Answer."""
    ans = arena_pb2.Answer(decision_id=decision.decision_id, match_id=decision.match_id)
    if isinstance(choice, Noted):
        ans.note = choice.note
        choice = choice.choice
    if isinstance(choice, arena_pb2.Action):
        ans.action.CopyFrom(choice)
    elif isinstance(choice, str):
        ans.notation = choice
    else:
        ans.legal_index = int(choice)
    return ans


def _with_rejoins(player, once, lost, extra=lambda: ""):
    """Runs once() until it returns, rejoining through player's targets after a retryable
    failure, with jittered backoff (reset once a stream made progress); player.reconnects
    failures in a row (negative: no limit) raise GaveUp. Each rejoin is logged as lost, and
    extra() is what the line adds."""
    backoff, failures = Backoff(0.05, player.max_backoff), 0
    first = True
    while True:
        if not first:
            player.rejoins += 1
        first = False
        try:
            return once()
        except (grpc.RpcError, StreamClosed) as err:
            code = err.code() if isinstance(err, grpc.RpcError) else grpc.StatusCode.UNAVAILABLE
            detail = err.details() if isinstance(err, grpc.RpcError) else str(err)
            if code not in RETRYABLE:
                raise
            player.targets.failed(code)
            if getattr(err, "progressed", False):
                backoff.reset()
                failures = 0
            failures += 1
            if player.reconnects >= 0 and failures > player.reconnects:
                raise GaveUp(f"gave up after {player.reconnects} reconnects: {code.name}: {detail}") from err
            wait = backoff.next()
            player.log(f"{lost} ({code.name}: {detail}); rejoining {player.targets.current()} in {wait:.2f}s{extra()}")
            time.sleep(wait)


class Player:
    """Plays the seat that ``token`` names on the arena at ``target`` until the match ends.

    Each rejoin dials a fresh channel: a channel that saw the server go away keeps backing off
    on its own schedule, which would delay the rejoin long after the server is back.

    ``bot`` needs ``act(decision) -> int | Action | str``; it may also have
    ``joined(joined)``, ``event(event)`` and ``rejected(rejected)``.
    """

    def __init__(self, target, token, bot, *, log=None, trace=None, max_backoff=5.0,
                 reconnects=20, probe_reject=False):
        self.targets = Targets(target)
        self.token = token
        self.bot = bot
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self.trace = trace
        self.max_backoff = max_backoff
        self.reconnects = reconnects
        # Send one out-of-range answer first, to show the rejection path working.
        self.probe_reject = probe_reject
        self.events_seen = None  # unknown: the server sends what it has not delivered
        self.decisions = 0
        self.rejections = 0
        self.rejoins = 0

    def play(self):
        """Returns the MatchEnded message; raises grpc.RpcError or GaveUp on failure."""
        return _with_rejoins(self, lambda: self._play_once()[0], "stream lost", lambda: (
            f" with events_seen={'unset' if self.events_seen is None else self.events_seen}"))

    def _send(self, reqs, req):
        if self.trace:
            self.trace("send", req)
        reqs.send(req)

    def _play_once(self):
        with grpc.insecure_channel(self.targets.current()) as ch:
            return self._stream(arena_pb2_grpc.ArenaServiceStub(ch))

    def _stream(self, stub):
        reqs = _Requests()
        # The bots read the typed view and the lists, never the text: ask the server to leave it out.
        join = arena_pb2.Join(token=self.token, receive=RECEIVE)
        if self.events_seen is not None:
            join.events_seen = self.events_seen
        self._send(reqs, arena_pb2.PlayRequest(join=join))
        call = stub.Play(reqs)
        progressed = False
        current = None  # the decision owed, until answered and (if rejected) fallen back
        fell_back = set()
        try:
            for resp in call:
                progressed = True
                if self.trace:
                    self.trace("recv", resp)
                kind = resp.WhichOneof("msg")
                if kind == "joined":
                    # events_seen stays unknown until the first event: a first join (or a new
                    # process taking over the seat) gets what the seat has not been sent yet,
                    # which need not start at event 0.
                    if hasattr(self.bot, "joined"):
                        self.bot.joined(resp.joined)
                elif kind == "events":
                    self._events(resp.events.events)
                elif kind == "decision":
                    d = resp.decision
                    self._events(d.events)
                    current = d
                    self.decisions += 1
                    if self.probe_reject:
                        self.probe_reject = False
                        self.log(f"probe: answering {d.decision_id} with out-of-range index {len(d.legal)}")
                        self._send(reqs, arena_pb2.PlayRequest(answer=answer_for(d, len(d.legal))))
                        continue
                    self._send(reqs, arena_pb2.PlayRequest(answer=answer_for(d, self._choose(d))))
                elif kind == "accepted":
                    self._events(resp.accepted.events)
                elif kind == "rejected":
                    rej = resp.rejected
                    self.rejections += 1
                    self.log(f"rejected {rej.decision_id}: {arena_pb2.RejectCode.Name(rej.code)}: {rej.reason}")
                    if hasattr(self.bot, "rejected"):
                        self.bot.rejected(rej)
                    # The decision still stands until its deadline: answer it with a listed
                    # action rather than lose the turn to the clock. A stale rejection means a
                    # newer decision is on its way, so there is nothing to fall back for.
                    if (current is not None and rej.decision_id == current.decision_id
                            and rej.code != arena_pb2.REJECT_CODE_STALE_DECISION
                            and len(current.legal) > 0 and current.decision_id not in fell_back):
                        fell_back.add(current.decision_id)
                        self.log(f"falling back to legal[0] = {current.legal_notation[0]!r}")
                        self._send(reqs, arena_pb2.PlayRequest(answer=answer_for(current, 0)))
                elif kind == "ended":
                    return resp.ended, progressed
                else:
                    self.log(f"ignoring an unknown message on the stream: {kind}")
        except grpc.RpcError as err:
            err.progressed = progressed
            raise
        finally:
            reqs.close()
            call.cancel()
        exc = StreamClosed("stream closed before the match ended")
        exc.progressed = progressed
        raise exc

    def _choose(self, d):
        if len(d.legal_notation) == 0 and len(d.legal) == 0:
            return 0
        try:
            choice = self.bot.act(d)
        except Exception as err:  # a bug in a strategy must not cost the seat its turn
            self.log(f"bot failed on {d.decision_id} ({type(err).__name__}: {err}); playing legal[0]")
            return 0
        return 0 if choice is None else choice

    def _events(self, events):
        for e in events:
            if self.events_seen is not None and e.seq != self.events_seen:
                self.log(f"event gap: got event {e.seq} where {self.events_seen} was expected")
            self.events_seen = e.seq + 1
            if hasattr(self.bot, "event"):
                self.bot.event(e)


class LadderPlayer:
    """Plays a registered bot's matches on one ladder stream, several at once.

    The stream opens with ``authorization: bearer <key>`` and ``LadderJoin``; the server then
    seats the bot in ladder matches (unless ``tournaments_only``) and in the matches of
    server-run tournaments, and every message names its ``match_id``: answers are routed back
    by it. ``new_bot(match_id)`` makes the bot of one match (with ``act`` and optionally
    ``joined``, ``event``, ``rejected``). A dropped stream is rejoined like ``Player`` does;
    the server seats the bot again in the matches it was playing.

    ``play`` returns after ``matches`` matches have ended (0: until the server closes the
    stream), closing the stream, which tells the server the bot has left.
    """

    def __init__(self, target, key, new_bot, *, games=(), max_matches=1, tournaments_only=False,
                 matches=0, log=None, trace=None, max_backoff=5.0, reconnects=20):
        self.targets = Targets(target)
        self.key = key
        self.new_bot = new_bot
        self.games = list(games)
        self.max_matches = max_matches
        self.tournaments_only = tournaments_only
        self.matches = matches
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self.trace = trace
        self.max_backoff = max_backoff
        self.reconnects = reconnects
        self.bots = {}  # match id -> the bot playing it
        self.ended = []  # MatchEnded of every match played to the end, in order
        self.decisions = 0
        self.rejections = 0
        self.rejoins = 0
        self.connects = 0  # the ladder joins the server took

    def play(self):
        """Returns the MatchEnded messages; raises grpc.RpcError or GaveUp on failure."""
        def once():
            with grpc.insecure_channel(self.targets.current()) as ch:
                self._stream(arena_pb2_grpc.ArenaServiceStub(ch))
            return self.ended
        return _with_rejoins(self, once, "ladder stream lost")

    def _send(self, reqs, req):
        if self.trace:
            self.trace("send", req)
        reqs.send(req)

    def _stream(self, stub):
        reqs = _Requests()
        join = arena_pb2.LadderJoin(games=self.games, max_matches=self.max_matches,
                                    tournaments_only=self.tournaments_only, receive=RECEIVE)
        self._send(reqs, arena_pb2.PlayRequest(ladder=join))
        call = stub.Play(reqs, metadata=(("authorization", f"bearer {self.key}"),))
        # The server's response headers say it took the ladder join, before any match; a
        # refusal ends the call instead (the iteration below raises it).
        try:
            header = dict(call.initial_metadata() or ())
        except grpc.RpcError:
            header = {}
        if "orrery-ladder-joined" in header:
            what = "waiting for tournament matches" if self.tournaments_only else "on the ladder"
            if self.connects == 0:
                self.log(f"connected to {self.targets.current()}, {what}")
            else:
                self.log(f"reconnected to {self.targets.current()} (reconnection {self.connects}), {what}; "
                         "matches in play resume")
            self.connects += 1
        progressed = False
        current = {}  # match id -> the decision owed there
        fell_back = set()
        try:
            for resp in call:
                progressed = True
                if self.trace:
                    self.trace("recv", resp)
                kind = resp.WhichOneof("msg")
                if kind == "joined":
                    j = resp.joined
                    if j.match_id not in self.bots:
                        self.bots[j.match_id] = self.new_bot(j.match_id)
                    bot = self.bots[j.match_id]
                    if hasattr(bot, "joined"):
                        bot.joined(j)
                elif kind == "events":
                    self._events(resp.events.match_id, resp.events.events)
                elif kind == "decision":
                    d = resp.decision
                    self._events(d.match_id, d.events)
                    current[d.match_id] = d
                    self.decisions += 1
                    self._send(reqs, arena_pb2.PlayRequest(answer=answer_for(d, self._choose(d))))
                elif kind == "accepted":
                    self._events(resp.accepted.match_id, resp.accepted.events)
                elif kind == "rejected":
                    rej = resp.rejected
                    self.rejections += 1
                    self.log(f"rejected {rej.match_id} {rej.decision_id}: {arena_pb2.RejectCode.Name(rej.code)}: {rej.reason}")
                    bot = self.bots.get(rej.match_id)
                    if bot is not None and hasattr(bot, "rejected"):
                        bot.rejected(rej)
                    d = current.get(rej.match_id)
                    if (d is not None and rej.decision_id == d.decision_id
                            and rej.code != arena_pb2.REJECT_CODE_STALE_DECISION
                            and len(d.legal) > 0 and (d.match_id, d.decision_id) not in fell_back):
                        fell_back.add((d.match_id, d.decision_id))
                        self._send(reqs, arena_pb2.PlayRequest(answer=answer_for(d, 0)))
                elif kind == "ended":
                    e = resp.ended
                    self.bots.pop(e.match_id, None)
                    current.pop(e.match_id, None)
                    self.ended.append(e)
                    res = e.result
                    self.log(f"match {e.match_id} ended ({arena_pb2.EndReason.Name(res.reason)}): seat {e.seat} "
                             f"rank {res.ranks[e.seat] if e.seat < len(res.ranks) else '?'} of {len(res.ranks)}")
                    if self.matches and len(self.ended) >= self.matches:
                        return
                else:
                    self.log(f"ignoring an unknown message on the stream: {kind}")
        except grpc.RpcError as err:
            err.progressed = progressed
            raise
        finally:
            reqs.close()
            if self.matches and len(self.ended) >= self.matches:
                # Leaving: the half-close tells the server; wait for its end of the stream.
                try:
                    for _ in call:
                        pass
                except grpc.RpcError:
                    pass
            call.cancel()
        exc = StreamClosed("the server closed the ladder stream")
        exc.progressed = progressed
        raise exc

    def _choose(self, d):
        if len(d.legal_notation) == 0 and len(d.legal) == 0:
            return 0
        bot = self.bots.get(d.match_id)
        if bot is None:  # a decision before its joined: cannot happen, but play safe
            bot = self.bots[d.match_id] = self.new_bot(d.match_id)
        try:
            choice = bot.act(d)
        except Exception as err:  # a bug in a strategy must not cost the seat its turn
            self.log(f"bot failed on {d.match_id} {d.decision_id} ({type(err).__name__}: {err}); playing legal[0]")
            return 0
        return 0 if choice is None else choice

    def _events(self, match_id, events):
        bot = self.bots.get(match_id)
        if bot is None or not hasattr(bot, "event"):
            return
        for e in events:
            bot.event(e)
