'use strict';
// Several addresses: a seat whose node fails rejoins through the next one, with its token.
// Run from bots/js: npm test

const test = require('node:test');
const assert = require('node:assert');
const net = require('node:net');
const { Player, Targets, grpc, load } = require('../orrery');

// deadAddress is a loopback address nothing listens on.
function deadAddress() {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(`127.0.0.1:${port}`));
    });
  });
}

// node serves one seat: a decision, then the end once the answer comes. With failFirst it
// ends its first stream with UNAVAILABLE after the decision, as a node that dies mid-game.
function node(token, failFirst = false) {
  const joins = [];
  const server = new grpc.Server();
  server.addService(load().ArenaService.service, {
    Play(call) {
      let joined = false;
      call.on('data', (req) => {
        if (!joined) {
          joined = true;
          const j = req.join;
          joins.push([j.token, j.events_seen === undefined || j.events_seen === null ? null : Number(j.events_seen)]);
          if (j.token !== token) {
            call.emit('error', { code: grpc.status.UNAUTHENTICATED, details: 'join: unknown seat token' });
            return;
          }
          call.write({ joined: { match_id: 'm1', seat: 0, game: 'g', seats: 2 } });
          call.write({ decision: { decision_id: 'd1', match_id: 'm1', legal_notation: ['a', 'b'], events: [{ seq: '0' }] } });
          if (failFirst && joins.length === 1) {
            call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'node going away' });
          }
          return;
        }
        if (req.answer) {
          call.write({ accepted: { decision_id: 'd1', match_id: 'm1' } });
          call.write({ ended: { match_id: 'm1', seat: 0, seed: '7' } });
          call.end();
        }
      });
      call.on('end', () => call.end());
    },
  });
  return new Promise((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => {
      if (err) reject(err);
      else resolve({ server, joins, addr: `127.0.0.1:${port}` });
    });
  });
}

const firstLegal = { act: () => 0 };
const quiet = () => {};

test('Targets lists addresses and moves on in turn on UNAVAILABLE only', () => {
  assert.deepStrictEqual(new Targets('a:1, b:2,,c:3').addrs, ['a:1', 'b:2', 'c:3']);
  assert.deepStrictEqual(new Targets(['a:1', 'b:2']).addrs, ['a:1', 'b:2']);
  assert.throws(() => new Targets(' , '));
  const t = new Targets('a,b,c');
  t.failed(grpc.status.UNAUTHENTICATED);
  assert.strictEqual(t.current(), 'a');
  const seen = [];
  for (let i = 0; i < 4; i++) {
    t.failed(grpc.status.UNAVAILABLE);
    seen.push(t.current());
  }
  assert.deepStrictEqual(seen, ['b', 'c', 'a', 'b']);
});

test('a dead first address is passed over', async () => {
  const live = await node('tok');
  try {
    const player = new Player(`${await deadAddress()},${live.addr}`, 'tok', firstLegal, { log: quiet, maxBackoffMs: 100 });
    const ended = await player.play();
    assert.strictEqual(String(ended.seed), '7');
    assert.strictEqual(player.rejoins, 1);
    assert.strictEqual(player.targets.current(), live.addr);
    assert.deepStrictEqual(live.joins, [['tok', null]]);
  } finally {
    live.server.forceShutdown();
  }
});

test('a node lost mid-game is rejoined through the next with the token and the events seen', async () => {
  // Both nodes serve the same seat, as the nodes of a cluster do (one relays to the other).
  const failing = await node('tok', true);
  const other = await node('tok');
  try {
    const player = new Player([failing.addr, other.addr], 'tok', firstLegal, { log: quiet, maxBackoffMs: 100 });
    const ended = await player.play();
    assert.strictEqual(String(ended.seed), '7');
    assert.deepStrictEqual(failing.joins, [['tok', null]]);
    assert.deepStrictEqual(other.joins, [['tok', 1]]);
    assert.strictEqual(player.rejoins, 1);
  } finally {
    failing.server.forceShutdown();
    other.server.forceShutdown();
  }
});
