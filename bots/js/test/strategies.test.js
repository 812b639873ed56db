'use strict';
// Unit tests of the strategies; the Go test cmd/orrery/foreign_test.go plays real matches.
// Run from bots/js: npm test

const test = require('node:test');
const assert = require('node:assert');
const { load, answerFor, Noted } = require('../orrery');
const { AutoBot, IndexBot, PlanetBot } = require('../strategies');

// A PlayResponse whose decision's observation holds field 99: a game arm added to the server
// after these .proto files were copied.
const UNKNOWN_ARM = Buffer.from('120f' + '0a026431' + '2203' + '9a0600' + '320161' + '320162', 'hex');

function planetDecision() {
  const F = 'HABITAT_FOREST';
  const O = 'HABITAT_OCEAN';
  const empty = () => Array(60).fill('HABITAT_UNSPECIFIED');
  const mine = empty();
  for (let a = 5; a < 10; a++) mine[a] = F; // face 1 is forest already
  const legal = [];
  const notation = [];
  for (const face of [0, 2]) {
    for (let rot = 0; rot < 5; rot++) {
      legal.push({ game: 'planet', planet: { kind: 'place', place: { tile: 7, face, rotation: rot } } });
      notation.push(`tile 7 face ${face} rot ${rot}`);
    }
  }
  return {
    decision_id: 'd1',
    seat: 0,
    legal,
    legal_notation: notation,
    observation: {
      game: 'planet',
      planet: {
        seat: 0, seats: 2, turn: 1, beginners: false,
        // This turn's animal: the largest forest not touching glacier (there is no glacier).
        columns: [{ turn: 1, face_down: 0, cards: [{ id: 1, habitat: F, kind: 'REQUIREMENT_KIND_LARGEST_NOT_TOUCHING', other: 'HABITAT_GLACIER' }] }],
        display: [{ id: 7, areas: [F, F, F, O, O] }],
        planets: [{ seat: 0, areas: mine, objective: { habitat: F } }, { seat: 1, areas: empty(), objective: null }],
      },
    },
  };
}

function neighbours() {
  const n = [];
  for (let f = 0; f < 12; f++) for (let e = 0; e < 5; e++) n.push([f * 5 + ((e + 1) % 5), f * 5 + ((e + 4) % 5)]);
  n[0].push(5); // area 0 (face 0) touches area 5 (face 1)
  n[5].push(0);
  return n;
}

test('planet grows the objective region', () => {
  const d = planetDecision();
  const p = d.legal[new PlanetBot(neighbours()).act(d)].planet.place;
  assert.strictEqual(p.face, 0);
  assert.ok([0, 3, 4].includes(p.rotation), `rotation ${p.rotation}`);
});

test('an unknown observation arm plays by legal index and says so once', () => {
  const v1 = load();
  const resp = v1.ArenaService.service.Play.responseDeserialize(UNKNOWN_ARM);
  assert.strictEqual(resp.msg, 'decision');
  assert.strictEqual(resp.decision.observation.game, undefined);
  const logs = [];
  const bot = new AutoBot({ seed: 3, log: (m) => logs.push(m) });
  assert.ok([0, 1].includes(bot.act(resp.decision)));
  assert.ok([0, 1].includes(bot.act(resp.decision)));
  assert.strictEqual(logs.length, 1);
  assert.match(logs[0], /no game arm this client knows/);
});

test('the index bot is seeded', () => {
  const d = { legal: [], legal_notation: Array.from({ length: 50 }, (_, i) => String(i)) };
  const a = new IndexBot(5);
  const b = new IndexBot(5);
  for (let i = 0; i < 5; i++) assert.strictEqual(a.act(d), b.act(d));
});

test('answers by index, notation or typed action', () => {
  const d = { decision_id: 'd4', match_id: 'm1' };
  assert.deepStrictEqual(answerFor(d, 2), { decision_id: 'd4', match_id: 'm1', legal_index: 2 });
  assert.strictEqual(answerFor(d, 'pass').notation, 'pass');
  const action = { icetraders: { pass: {} } };
  assert.strictEqual(answerFor(d, action).action, action);
  // The typed answer must serialize.
  const v1 = load();
  const bytes = v1.ArenaService.service.Play.requestSerialize({ answer: answerFor(d, action) });
  assert.ok(bytes.length > 0);
});

test('a noted choice carries its note', () => {
  const d = { decision_id: 'd4', match_id: 'm1' };
  assert.deepStrictEqual(answerFor(d, new Noted(2, 'north site: +3 production')),
    { decision_id: 'd4', match_id: 'm1', legal_index: 2, note: 'north site: +3 production' });
  assert.strictEqual(answerFor(d, new Noted('pass', 7)).note, '7');
  const bytes = load().ArenaService.service.Play.requestSerialize({ answer: answerFor(d, new Noted(0, 'why')) });
  assert.ok(bytes.includes(Buffer.from('why')));
});
