"""Several addresses: a seat whose node fails rejoins through the next one, with its token.

Run from bots/python with python3 -m unittest discover -s tests.
"""

import socket
import threading
import unittest
from concurrent import futures

import grpc

from orrery.v1 import arena_pb2, arena_pb2_grpc
from orrery_bot import Player, Targets


def dead_address():
    """A loopback address nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"


class Node(arena_pb2_grpc.ArenaServiceServicer):
    """A node that plays one seat: a decision, then the end once the answer comes.

    With ``fail_after_decision`` it ends the first stream with UNAVAILABLE after sending the
    decision, as a node that dies mid-game does.
    """

    def __init__(self, token, fail_after_decision=False):
        self.token = token
        self.fail_after_decision = fail_after_decision
        self.joins = []  # (token, events_seen or None) of each join
        self.lock = threading.Lock()

    def Play(self, request_iterator, context):
        join = next(request_iterator).join
        with self.lock:
            self.joins.append((join.token, join.events_seen if join.HasField("events_seen") else None))
            first = len(self.joins) == 1
        if join.token != self.token:
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "join: unknown seat token")
        yield arena_pb2.PlayResponse(joined=arena_pb2.Joined(match_id="m1", seat=0, game="g", seats=2))
        event = arena_pb2.Event(seq=0)
        yield arena_pb2.PlayResponse(decision=arena_pb2.Decision(
            decision_id="d1", match_id="m1", legal_notation=["a", "b"], events=[event]))
        if self.fail_after_decision and first:
            context.abort(grpc.StatusCode.UNAVAILABLE, "node going away")
        for req in request_iterator:
            if req.HasField("answer"):
                yield arena_pb2.PlayResponse(accepted=arena_pb2.ActionAccepted(decision_id="d1", match_id="m1"))
                yield arena_pb2.PlayResponse(ended=arena_pb2.MatchEnded(match_id="m1", seat=0, seed=7))
                return


def serve(node):
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    arena_pb2_grpc.add_ArenaServiceServicer_to_server(node, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, f"127.0.0.1:{port}"


class FirstLegal:
    def act(self, decision):
        return 0


class TargetsTest(unittest.TestCase):
    def test_a_list_of_addresses(self):
        for given, want in [("a:1", ["a:1"]), ("a:1, b:2,,c:3", ["a:1", "b:2", "c:3"]), (["a:1", "b:2"], ["a:1", "b:2"])]:
            self.assertEqual(Targets(given).addrs, want)
        with self.assertRaises(ValueError):
            Targets(" , ")

    def test_unavailable_moves_on_in_turn_and_a_refusal_does_not(self):
        t = Targets("a,b,c")
        t.failed(grpc.StatusCode.UNAUTHENTICATED)
        self.assertEqual(t.current(), "a")
        seen = []
        for _ in range(4):
            t.failed(grpc.StatusCode.UNAVAILABLE)
            seen.append(t.current())
        self.assertEqual(seen, ["b", "c", "a", "b"])


class FailoverTest(unittest.TestCase):
    def test_a_dead_first_address_is_passed_over(self):
        node = Node("tok")
        server, addr = serve(node)
        self.addCleanup(server.stop, None)
        logs = []
        player = Player(f"{dead_address()},{addr}", "tok", FirstLegal(), log=logs.append, max_backoff=0.1)
        ended = player.play()
        self.assertEqual(ended.seed, 7)
        self.assertEqual(player.rejoins, 1)
        self.assertEqual(player.targets.current(), addr)
        self.assertEqual(node.joins, [("tok", None)])

    def test_a_node_lost_mid_game_is_rejoined_through_the_next_with_the_token(self):
        # Both nodes serve the same seat, as the nodes of a cluster do (one relays to the other).
        failing, other = Node("tok", fail_after_decision=True), Node("tok")
        s1, a1 = serve(failing)
        s2, a2 = serve(other)
        self.addCleanup(s1.stop, None)
        self.addCleanup(s2.stop, None)
        player = Player([a1, a2], "tok", FirstLegal(), log=lambda msg: None, max_backoff=0.1)
        ended = player.play()
        self.assertEqual(ended.seed, 7)
        self.assertEqual(failing.joins, [("tok", None)])
        # The rejoin says how many events the bot has seen, so the node resends none of them.
        self.assertEqual(other.joins, [("tok", 1)])
        self.assertEqual(player.rejoins, 1)


if __name__ == "__main__":
    unittest.main()
