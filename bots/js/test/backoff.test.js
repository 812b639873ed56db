'use strict';
// Reconnect waits spread bots out. Run from bots/js: npm test

const test = require('node:test');
const assert = require('node:assert');
const { Backoff } = require('../backoff');

test('the cap doubles to the limit and resets', () => {
  const b = new Backoff(50, 1000, () => 0.5);
  assert.deepStrictEqual(Array.from({ length: 7 }, () => b.next()), [25, 50, 100, 200, 400, 500, 500]);
  b.reset();
  assert.strictEqual(b.cap(), 50);
});

test('clients restarting together spread out', () => {
  // 200 bots dropped by one restart: their waits differ and fill each quarter of the cap.
  const clients = Array.from({ length: 200 }, () => new Backoff(100, 30000));
  for (let retry = 0; retry < 4; retry++) {
    const cap = clients[0].cap();
    const waits = clients.map((c) => c.next());
    assert.ok(waits.every((w) => w >= 0 && w < cap), `retry ${retry}: a wait outside [0, ${cap})`);
    assert.ok(new Set(waits).size > 180, `retry ${retry}: waits coincide`);
    for (let q = 0; q < 4; q++) {
      const n = waits.filter((w) => w >= (q * cap) / 4 && w < ((q + 1) * cap) / 4).length;
      assert.ok(n >= 20, `retry ${retry}: ${n} of 200 in quarter ${q}`);
    }
  }
});
