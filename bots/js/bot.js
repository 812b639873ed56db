#!/usr/bin/env node
'use strict';
// Command line: orrery-bot (npx ./bots/js, or node bot.js) {play,ladder,create,games} [--server ADDR] ... (see README.md).

const fs = require('node:fs');
const { parseArgs } = require('node:util');

const log = (msg) => process.stderr.write(`orrery-bot: ${msg}\n`);

// The gRPC modules are loaded once the command line has been read, so that --help and usage
// errors work before `npm ci`, and a checkout without node_modules says what to run.
let LadderPlayer, Player, connect, unary, AutoBot;
function loadClient() {
  try {
    ({ LadderPlayer, Player, connect, unary } = require('./orrery'));
    ({ AutoBot } = require('./strategies'));
    return true;
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND' || !/@grpc\//.test(err.message)) throw err;
    log(`its dependencies are not installed (${err.message.split('\n')[0]}); from the repository root run: npm ci --prefix bots/js`);
    return false;
  }
}

const USAGE = `usage: orrery-bot COMMAND [flags] [--server 127.0.0.1:7070]
       (from the repository root: npx ./bots/js ...; in bots/js: node bot.js ...)
       --server, before or after the command, lists the nodes of a cluster as ADDR,ADDR,...:
       a dropped stream rejoins through the next

commands:
  play    --token T (or ORRERY_TOKEN) [--seed N] [--index-only] [--trace FILE|-] [--probe-reject] [--notes] [--reconnects N]
          play one seat until the match ends; --notes notes on each answer which strategy chose it
  ladder  --key K (or ORRERY_API_KEY) [--games G,...] [--max-matches N] [--tournaments-only] [--matches N]
          [--seed N] [--index-only] [--trace FILE|-] [--reconnects N]
          play a registered bot's ladder and tournament matches on one stream
  create  --game G --seats N [--option name=value ...] [--per-move SECONDS] [--seed N]
          create a match and print its seat tokens and its creator token
  games   list the games
`;

async function play(server, argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      token: { type: 'string' },
      seed: { type: 'string', default: '1' },
      'index-only': { type: 'boolean', default: false },
      trace: { type: 'string' },
      'probe-reject': { type: 'boolean', default: false },
      notes: { type: 'boolean', default: false },
      reconnects: { type: 'string', default: '20' },
    },
  });
  const token = values.token || process.env.ORRERY_TOKEN || '';
  if (!token) {
    log('a seat token is required: --token T or the environment variable ORRERY_TOKEN');
    return 2;
  }
  const games = {};
  if (!values['index-only']) {
    const client = connect(server);
    try { // the catalog gives the typed strategies their static data (Planet's geometry)
      const resp = await unary(client, 'ListGames', {});
      for (const g of resp.games) games[g.name] = g;
    } catch (err) {
      log(`ListGames failed (${err.details || err.message}); typed strategies run without the catalog`);
    } finally {
      client.close();
    }
  }
  const bot = new AutoBot({ seed: Number(values.seed), games, log, typed: !values['index-only'], notes: values.notes });
  let trace = null;
  if (values.trace) {
    const out = values.trace === '-' ? process.stdout : fs.createWriteStream(values.trace);
    let broken = false;
    out.on('error', (err) => { // a closed pipe or a full disk stops the trace, not the game
      if (!broken) log(`trace stopped: ${err.message}`);
      broken = true;
    });
    trace = (dir, msg) => { if (!broken) out.write(`${JSON.stringify({ dir, msg })}\n`); };
  }
  const player = new Player(server, token, bot, {
    log, trace, probeReject: values['probe-reject'], reconnects: Number(values.reconnects),
  });
  let ended;
  try {
    ended = await player.play();
  } catch (err) {
    log(`the server refused the stream or went away for good: ${err.details || err.message}`);
    return 1;
  }
  const res = ended.result || { ranks: [], scores: [], reason: 'END_REASON_UNSPECIFIED', detail: '' };
  log(`match ${ended.match_id} ended (${res.reason}): seat ${ended.seat} rank ${res.ranks[ended.seat] ?? '?'}; ranks [${res.ranks.join(', ')}], scores [${res.scores.join(', ')}]: ${res.detail}`);
  log(`decisions ${player.decisions}, rejections ${player.rejections}, rejoins ${player.rejoins}`);
  return 0;
}

// catalog is ListGames by name: the typed strategies' static data (Planet's geometry).
async function catalog(server) {
  const games = {};
  const client = connect(server);
  try {
    const resp = await unary(client, 'ListGames', {});
    for (const g of resp.games) games[g.name] = g;
  } catch (err) {
    log(`ListGames failed (${err.details || err.message}); typed strategies run without the catalog`);
  } finally {
    client.close();
  }
  return games;
}

async function ladder(server, argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      key: { type: 'string' },
      games: { type: 'string', default: '' },
      'max-matches': { type: 'string', default: '1' },
      'tournaments-only': { type: 'boolean', default: false },
      matches: { type: 'string', default: '0' },
      seed: { type: 'string', default: '1' },
      'index-only': { type: 'boolean', default: false },
      trace: { type: 'string' },
      reconnects: { type: 'string', default: '20' },
    },
  });
  const key = values.key || process.env.ORRERY_API_KEY || '';
  if (!key) {
    log('an API key is required: --key K or the environment variable ORRERY_API_KEY (orrery bot register NAME prints one)');
    return 2;
  }
  const games = values['index-only'] ? {} : await catalog(server);
  let n = 0;
  const newBot = () => new AutoBot({ seed: Number(values.seed) + ++n, games, log, typed: !values['index-only'] });
  let trace = null;
  if (values.trace) {
    const out = values.trace === '-' ? process.stdout : fs.createWriteStream(values.trace);
    trace = (dir, msg) => out.write(`${JSON.stringify({ dir, msg })}\n`);
  }
  const player = new LadderPlayer(server, key, newBot, {
    log, trace, games: values.games.split(',').filter(Boolean), maxMatches: Number(values['max-matches']),
    tournamentsOnly: values['tournaments-only'], matches: Number(values.matches), reconnects: Number(values.reconnects),
  });
  let ended;
  try {
    ended = await player.play();
  } catch (err) {
    log(`the server refused the ladder stream or went away for good: ${err.details || err.message}`);
    return 1;
  }
  log(`left the ladder after ${ended.length} matches: decisions ${player.decisions}, rejections ${player.rejections}, rejoins ${player.rejoins}`);
  return 0;
}

async function create(server, argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      game: { type: 'string' },
      seats: { type: 'string' },
      option: { type: 'string', multiple: true, default: [] },
      'per-move': { type: 'string' },
      seed: { type: 'string' },
    },
  });
  if (!values.game || !values.seats) {
    log('--game and --seats are required');
    return 2;
  }
  const req = { game: values.game, seats: Number(values.seats), options: {} };
  for (const opt of values.option) {
    const eq = opt.indexOf('=');
    if (eq <= 0) {
      log(`--option ${JSON.stringify(opt)}: want name=value`);
      return 2;
    }
    req.options[opt.slice(0, eq)] = opt.slice(eq + 1);
  }
  if (values['per-move']) {
    const ms = Math.round(Number(values['per-move']) * 1000);
    req.clock = { per_move: { seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 } };
  }
  if (values.seed !== undefined) req.seed = values.seed;
  const client = connect(server);
  try {
    const resp = await unary(client, 'CreateMatch', req);
    process.stdout.write(`match ${resp.match_id}\n`);
    for (const s of resp.seats) process.stdout.write(`seat ${s.seat} ${s.token}\n`);
    // The creator's own proof: `orrery matches --abort ID --tokens FILE` takes this line
    // alone; keep it, never give it to a seat.
    if (resp.creator_token) process.stdout.write(`creator ${resp.creator_token}\n`);
    return 0;
  } catch (err) {
    log(`CreateMatch: ${err.details || err.message}`);
    return 1;
  } finally {
    client.close();
  }
}

async function games(server, argv) {
  parseArgs({ args: argv, options: {} });
  const client = connect(server);
  try {
    const resp = await unary(client, 'ListGames', {});
    for (const g of resp.games) process.stdout.write(`${g.name}\t${g.title}\t${g.min_seats}-${g.max_seats} seats\n`);
    return 0;
  } catch (err) {
    log(`ListGames: ${err.details || err.message}`);
    return 1;
  } finally {
    client.close();
  }
}

// UsageError is a command line that cannot run: exit 2, with the usage.
class UsageError extends Error {}

// splitServer takes --server ADDR (or --server=ADDR) out of argv wherever it stands, before
// or after the command, as the Go command and the Python client take it.
function splitServer(argv) {
  let server = '127.0.0.1:7070';
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (a === '--server') {
      if (i + 1 >= argv.length || argv[i + 1].startsWith('--')) throw new UsageError('--server needs an address: --server HOST:PORT[,HOST:PORT...]');
      server = argv[++i];
    } else if (a.startsWith('--server=')) {
      server = a.slice('--server='.length);
    } else {
      rest.push(a);
    }
  }
  if (!server.split(',').some((s) => s.trim() !== '')) throw new UsageError('--server names no address');
  return { server, rest };
}

const COMMANDS = { play, ladder, create, games };

async function main(argv) {
  const { server, rest: [cmd, ...rest] } = splitServer(argv);
  if (cmd === '-h' || cmd === '--help' || cmd === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const run = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : null;
  if (!run) throw new UsageError(cmd === undefined ? 'no command' : `unknown command ${JSON.stringify(cmd)}`);
  if (rest.includes('-h') || rest.includes('--help')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!loadClient()) return 1;
  return run(server, rest);
}

// parseArgs rejects an unknown flag, a missing value or a stray argument with an error
// whose code starts ERR_PARSE_ARGS: a usage error like any other.
function isUsageError(err) {
  return err instanceof UsageError || (err && typeof err.code === 'string' && err.code.startsWith('ERR_PARSE_ARGS'));
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
  if (isUsageError(err)) {
    log(err.message);
    process.stderr.write(USAGE);
    process.exitCode = 2;
    return;
  }
  log(err && err.stack ? err.stack : String(err));
  process.exitCode = 1;
});
