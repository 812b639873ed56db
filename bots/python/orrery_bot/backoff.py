"""Reconnect waits: exponential growth with full jitter, as the Go SDK's bots/backoff.

Each wait is drawn at random below a cap that starts at ``base`` and doubles after every
retry up to ``limit``, so bots dropped together by a server restart come back spread over
the interval instead of all at once.
"""

import random


class Backoff:
    def __init__(self, base, limit, rand=random.random):
        self.base = base
        self.limit = limit
        self.attempt = 0
        self._rand = rand

    def cap(self):
        """The longest the next wait may be, in seconds: base * 2**attempt, at most limit."""
        return min(self.limit, self.base * 2 ** min(self.attempt, 62))

    def next(self):
        """The wait before the next retry, uniform in [0, cap()); then the cap doubles."""
        wait = self._rand() * self.cap()
        self.attempt += 1
        return wait

    def reset(self):
        """Start again from base, after a connection made progress."""
        self.attempt = 0
