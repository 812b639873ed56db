"""The command line: --server before or after the command, exit 2 on a usage error.

Run from bots/python: /usr/bin/python3 -m unittest discover -s tests
"""

import contextlib
import io
import os
import socket
import unittest
from unittest import mock

from orrery_bot.__main__ import main, parser


def closed_port():
    """A loopback address nothing listens on: a command dialling it fails with exit 1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"


class ServerAnywhere(unittest.TestCase):
    def test_before_and_after_the_command(self):
        for argv in (["--server", "a:1", "games"], ["games", "--server", "a:1"], ["--server=a:1", "games"],
                     ["games", "--server=a:1"], ["play", "--token", "t", "--server", "a:1", "--seed", "3"],
                     ["ladder", "--server", "a:1", "--key", "k"]):
            with self.subTest(argv=argv):
                self.assertEqual(parser().parse_args(argv).server, "a:1")

    def test_default_and_after_wins(self):
        self.assertEqual(parser().parse_args(["games"]).server, "127.0.0.1:7070")
        self.assertEqual(parser().parse_args(["--server", "a:1", "games", "--server", "b:2"]).server, "b:2")

    def test_dials_the_server_named_after_the_command(self):
        addr = closed_port()
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(["games", "--server", addr])
        self.assertEqual(code, 1, err.getvalue())
        self.assertIn("ListGames: UNAVAILABLE", err.getvalue())


class UsageErrors(unittest.TestCase):
    def test_exit_2(self):
        for argv in ([], ["dance"], ["play", "--bogus"], ["games", "extra"], ["play", "--server"],
                     ["create", "--game", "planet"], ["--server", "", "games"], ["games", "--server", " , "]):
            with self.subTest(argv=argv):
                err = io.StringIO()
                with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as cm:
                    main(argv)
                self.assertEqual(cm.exception.code, 2, err.getvalue())
                self.assertIn("usage:", err.getvalue())

    def test_missing_token_is_2(self):
        err = io.StringIO()
        env = {k: v for k, v in os.environ.items() if k != "ORRERY_TOKEN"}
        with mock.patch.dict(os.environ, env, clear=True), contextlib.redirect_stderr(err):
            self.assertEqual(main(["play", "--server", closed_port()]), 2)
        self.assertIn("ORRERY_TOKEN", err.getvalue())


if __name__ == "__main__":
    unittest.main()
