#!/usr/bin/env node
'use strict';
// Command line: orrery-bot (npx ./bots/js, or node bot.js) [--server ADDR] {play,create,games} ... (see README.md).

const fs = require('node:fs');
const { parseArgs } = require('node:util');
const { LadderPlayer, Player, connect, unary } = require('./orrery');
const { AutoBot } = require('./strategies');

const log = (msg) => process.stderr.write(`orrery-bot: ${msg}\n`);

const USAGE = `usage: orrery-bot [--server 127.0.0.1:7070] COMMAND [flags]
       (from the repository root: npx ./bots/js ...; in bots/js: node bot.js ...)
       --server lists the nodes of a cluster as ADDR,ADDR,...: a dropped stream rejoins through the next

commands:
  play    --token T (or ORRERY_TOKEN) [--seed N] [--index-only] [--trace FILE|-] [--probe-reject] [--reconnects N]
          play one seat until the match ends
  ladder  --key K (or ORRERY_API_KEY) [--games G,...] [--max-matches N] [--tournaments-only] [--matches N]
          [--seed N] [--index-only] [--trace FILE|-] [--reconnects N]
          play a registered bot's ladder and tournament matches on one stream
  create  --game G --seats N [--option name=value ...] [--per-move SECONDS] [--seed N]
          create a match and print its seat tokens
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
  const bot = new AutoBot({ seed: Number(values.seed), games, log, typed: !values['index-only'] });
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
    return 0;
  } catch (err) {
    log(`CreateMatch: ${err.details || err.message}`);
    return 1;
  } finally {
    client.close();
  }
}

async function games(server) {
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

async function main(argv) {
  let server = '127.0.0.1:7070';
  if (argv[0] === '--server') {
    server = argv[1];
    argv = argv.slice(2);
  } else if (argv[0] && argv[0].startsWith('--server=')) {
    server = argv[0].slice('--server='.length);
    argv = argv.slice(1);
  }
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'play': return play(server, rest);
    case 'ladder': return ladder(server, rest);
    case 'create': return create(server, rest);
    case 'games': return games(server);
    case '-h': case '--help': case 'help':
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
  log(err && err.stack ? err.stack : String(err));
  process.exitCode = 1;
});
