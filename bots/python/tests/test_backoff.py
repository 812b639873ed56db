"""Reconnect waits spread bots out: run from bots/python with python3 -m unittest discover -s tests."""

import unittest

from orrery_bot.backoff import Backoff


class BackoffTest(unittest.TestCase):
    def test_cap_doubles_to_the_limit_and_resets(self):
        b = Backoff(0.05, 1.0, rand=lambda: 0.5)
        self.assertEqual([round(b.next(), 3) for _ in range(7)], [0.025, 0.05, 0.1, 0.2, 0.4, 0.5, 0.5])
        b.reset()
        self.assertEqual(b.cap(), 0.05)

    def test_clients_restarting_together_spread_out(self):
        # 200 bots dropped by one restart: their waits differ and fill each quarter of the cap.
        clients = [Backoff(0.1, 30.0) for _ in range(200)]
        for retry in range(4):
            cap = clients[0].cap()
            waits = [c.next() for c in clients]
            self.assertTrue(all(0 <= w < cap for w in waits), f"retry {retry}: a wait outside [0, {cap})")
            self.assertGreater(len(set(waits)), 180, f"retry {retry}: waits coincide")
            for q in range(4):
                n = sum(1 for w in waits if q * cap / 4 <= w < (q + 1) * cap / 4)
                self.assertGreaterEqual(n, 20, f"retry {retry}: {n} of 200 in quarter {q}")


if __name__ == "__main__":
    unittest.main()
