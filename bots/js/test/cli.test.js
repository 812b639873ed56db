'use strict';
// The command line: --server before or after the command, exit 2 on a usage error, and a
// checkout without node_modules told what to run. Run from bots/js: npm test

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const BOT = path.resolve(__dirname, '..', 'bot.js');

function run(args, file = BOT) {
  const r = spawnSync(process.execPath, [file, ...args], { encoding: 'utf8', timeout: 30000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// closedPort is a loopback port nothing listens on: a command that dials it fails (exit 1)
// after reading its command line, which shows where it looked.
async function closedPort() {
  const srv = net.createServer();
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address();
  await new Promise((resolve) => srv.close(resolve));
  return `127.0.0.1:${port}`;
}

test('--server is read before and after the command', async () => {
  const addr = await closedPort();
  for (const args of [['--server', addr, 'games'], ['games', '--server', addr], [`--server=${addr}`, 'games'], ['games', `--server=${addr}`]]) {
    const r = run(args);
    assert.strictEqual(r.code, 1, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, /ListGames: /, args.join(' '));
    assert.doesNotMatch(r.err, /usage:/, args.join(' '));
  }
});

test('--server after play, with the play flags around it', async () => {
  const addr = await closedPort();
  const r = spawnSync(process.execPath, [BOT, 'play', '--index-only', '--server', addr, '--reconnects', '0'], {
    encoding: 'utf8', timeout: 30000, env: { ...process.env, ORRERY_TOKEN: 'm.secret' },
  });
  assert.strictEqual(r.status, 1, r.stderr);
  assert.ok(r.stderr.includes(addr), `the bot did not dial ${addr}:\n${r.stderr}`);
  assert.doesNotMatch(r.stderr, /usage:/);
});

test('usage errors exit 2 with the usage, not a stack trace', () => {
  for (const args of [[], ['dance'], ['play', '--bogus'], ['games', 'extra'], ['play', '--server'], ['create', '--game', 'planet'], ['--server', '', 'games']]) {
    const r = run(args);
    assert.strictEqual(r.code, 2, `${JSON.stringify(args)}: exit ${r.code}\n${r.err}`);
    assert.doesNotMatch(r.err, /\n\s+at /, `${JSON.stringify(args)} printed a stack trace:\n${r.err}`);
  }
  assert.match(run(['play', '--bogus']).err, /usage: orrery-bot/);
});

test('help exits 0', () => {
  const r = run(['--help']);
  assert.strictEqual(r.code, 0);
  assert.match(r.out, /usage: orrery-bot/);
});

test('without node_modules it says to run npm ci', () => {
  // A copy of the sources in a folder with no node_modules above it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orrery-bot-'));
  try {
    for (const f of ['bot.js', 'orrery.js', 'strategies.js', 'backoff.js', 'package.json']) {
      fs.copyFileSync(path.resolve(__dirname, '..', f), path.join(dir, f));
    }
    const r = run(['games'], path.join(dir, 'bot.js'));
    assert.strictEqual(r.code, 1, r.err);
    assert.match(r.err, /npm ci --prefix bots\/js/);
    assert.doesNotMatch(r.err, /\n\s+at /);
    assert.strictEqual(run(['--help'], path.join(dir, 'bot.js')).code, 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
