'use strict';
// Reconnect waits: exponential growth with full jitter, as the Go SDK's bots/backoff. Each
// wait is drawn at random below a cap that starts at baseMs and doubles after every retry up
// to limitMs, so bots dropped together by a server restart come back spread over the
// interval instead of all at once.

class Backoff {
  constructor(baseMs, limitMs, rand = Math.random) {
    this.baseMs = baseMs;
    this.limitMs = limitMs;
    this.attempt = 0;
    this.rand = rand;
  }

  // cap is the longest the next wait may be: baseMs * 2^attempt, at most limitMs.
  cap() {
    return Math.min(this.limitMs, this.baseMs * 2 ** Math.min(this.attempt, 62));
  }

  // next is the wait before the next retry, uniform in [0, cap()); then the cap doubles.
  next() {
    const wait = this.rand() * this.cap();
    this.attempt++;
    return wait;
  }

  // reset starts again from baseMs, after a connection made progress.
  reset() {
    this.attempt = 0;
  }
}

module.exports = { Backoff };
