'use strict';
// The Play stream in JavaScript: join a seat, answer decisions, survive rejections and dropped
// streams. It is the twin of the Go SDK (bots/sdk/sdk.go) and of bots/python: the same join,
// answer, fallback and reconnect rules. The .proto files are loaded at run time from proto/,
// so there is no generated code to keep in step.

const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const { Backoff } = require('./backoff');

// What the decisions carry: everything but the text, which these bots never read, quietly: no
// acceptances (the next decision says an answer was applied), the events riding on the
// decisions, one message a decision.
const RECEIVE = { omit_text: true, quiet: true };

// PROTO_DIR is the repository's proto/ folder; ORRERY_PROTO_DIR points elsewhere.
const PROTO_DIR = process.env.ORRERY_PROTO_DIR || path.resolve(__dirname, '..', '..', 'proto');

// Objects mirror protobuf's JSON names with keepCase (snake_case fields), enums as their names,
// 64-bit integers as strings, unset scalars as their zero values, and for each oneof a virtual
// field naming the arm that is set (decision.observation.game === 'planet').
const LOADER_OPTIONS = {
  includeDirs: [PROTO_DIR],
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

// Stream failures worth a rejoin: the network or the server going away, not a refusal. A bad
// token (UNAUTHENTICATED), an unknown match (NOT_FOUND), a malformed join (INVALID_ARGUMENT) or
// a newer stream for the same seat (ABORTED) will not get better by retrying.
const RETRYABLE = new Set([
  grpc.status.UNAVAILABLE,
  grpc.status.UNKNOWN,
  grpc.status.INTERNAL,
  grpc.status.DEADLINE_EXCEEDED,
  grpc.status.RESOURCE_EXHAUSTED,
]);

let loaded;

// load returns the orrery.v1 package (ArenaService and its messages).
function load() {
  if (!loaded) {
    const def = protoLoader.loadSync('orrery/v1/arena.proto', LOADER_OPTIONS);
    loaded = grpc.loadPackageDefinition(def).orrery.v1;
  }
  return loaded;
}

// Targets are the addresses of one arena, or of the nodes of a cluster, tried in turn. Every
// node of a cluster answers every call (it relays a seat's stream to the node that runs its
// match), so a client given several addresses uses one, and moves to the next when that one
// fails the stream with UNAVAILABLE or closes it (the node died, is shutting down, or the
// match is moving to another node): the rejoin, after the backoff, goes there. target is one
// address, several separated by commas ('a:7070,b:7070'), or an array.
class Targets {
  constructor(target) {
    const list = Array.isArray(target) ? target : String(target).split(',');
    this.addrs = list.map((a) => a.trim()).filter((a) => a !== '');
    if (this.addrs.length === 0) throw new Error('no server address');
    this.at = 0;
  }

  // current is the address the next stream goes to.
  current() {
    return this.addrs[this.at];
  }

  // failed moves on to the next address after a failure with code there.
  failed(code) {
    if (code === grpc.status.UNAVAILABLE) this.at = (this.at + 1) % this.addrs.length;
  }
}

// connect makes an ArenaService client of target's first address. gRPC's own reconnect
// backoff grows to two minutes by default, far longer than a server restart takes, so it is
// capped here.
function connect(target) {
  const v1 = load();
  return new v1.ArenaService(new Targets(target).current(), grpc.credentials.createInsecure(), {
    'grpc.initial_reconnect_backoff_ms': 100,
    'grpc.max_reconnect_backoff_ms': 2000,
  });
}

// unary calls a unary method as a promise.
function unary(client, method, req, timeoutMs = 10000) {
  return new Promise((resolve, reject) => {
    client[method](req, { deadline: Date.now() + timeoutMs }, (err, resp) => (err ? reject(err) : resolve(resp)));
  });
}

// NOTE_LIMIT is the longest note the server keeps, in bytes (UTF-8); it cuts a longer one and
// marks the cut.
const NOTE_LIMIT = 1024;

// Noted is a choice with a debug note, kept with the step in the replay (shown only to this
// seat while the match runs, to everyone once it has ended). A bot's act returns one in place
// of its choice: return new Noted(best, `site ${site}: +${gain} production`).
class Noted {
  constructor(choice, note) {
    this.choice = choice;
    this.note = String(note);
  }
}

// answerFor turns what a bot returned (an index, a typed Action object with a game arm, a
// notation string, or any of them Noted) into an Answer.
function answerFor(decision, choice) {
  const ans = { decision_id: decision.decision_id, match_id: decision.match_id };
  if (choice instanceof Noted) {
    ans.note = choice.note;
    choice = choice.choice;
  }
  if (typeof choice === 'string') ans.notation = choice;
  else if (choice !== null && typeof choice === 'object') ans.action = choice;
  else ans.legal_index = Number(choice) || 0;
  return ans;
}

// redact copies a request for a trace, hiding the seat token.
function redact(req) {
  if (!req.join) return req;
  return { ...req, join: { ...req.join, token: '<redacted>' } };
}

class StreamError extends Error {
  constructor(code, details, progressed) {
    super(details);
    this.code = code;
    this.details = details;
    this.progressed = progressed;
  }
}

// Player plays the seat that token names on the arena at target until the match ends. Each
// rejoin dials a fresh client: a channel that saw the server go away keeps backing off on its
// own schedule, which would delay the rejoin long after the server is back. bot needs act(decision), which
// returns an index, a typed Action or notation; it may also have joined(j), event(e) and
// rejected(r).
// withRejoins runs once() until it resolves, rejoining through player's targets after a
// retryable failure, with jittered backoff (reset once a stream made progress); more than
// player.reconnects failures in a row (negative: no limit) give up. Each rejoin is logged as
// lost, and extra() is what the line adds.
async function withRejoins(player, once, lost, extra = () => '') {
  const backoff = new Backoff(50, player.maxBackoffMs);
  let failures = 0;
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) player.rejoins++;
    try {
      return await once();
    } catch (err) {
      if (!(err instanceof StreamError) || !RETRYABLE.has(err.code)) throw err;
      player.targets.failed(err.code);
      if (err.progressed) {
        backoff.reset();
        failures = 0;
      }
      failures++;
      if (player.reconnects >= 0 && failures > player.reconnects) {
        throw new Error(`gave up after ${player.reconnects} reconnects: ${grpc.status[err.code]}: ${err.details}`);
      }
      const wait = backoff.next();
      player.log(`${lost} (${grpc.status[err.code]}: ${err.details}); rejoining ${player.targets.current()} in ${(wait / 1000).toFixed(2)}s${extra()}`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

class Player {
  constructor(target, token, bot, opts = {}) {
    this.targets = new Targets(target);
    this.token = token;
    this.bot = bot;
    this.log = opts.log || ((msg) => process.stderr.write(`${msg}\n`));
    this.trace = opts.trace || null; // (direction, message) => void
    this.maxBackoffMs = opts.maxBackoffMs ?? 5000;
    this.reconnects = opts.reconnects ?? 20;
    // Send one out-of-range answer first, to show the rejection path working.
    this.probeReject = !!opts.probeReject;
    this.eventsSeen = null; // unknown: the server sends what it has not delivered
    this.decisions = 0;
    this.rejections = 0;
    this.rejoins = 0;
  }

  // play resolves with the MatchEnded message, or rejects with the stream's error.
  play() {
    return withRejoins(this, () => this.playOnce(), 'stream lost', () => ` with events_seen=${this.eventsSeen ?? 'unset'}`);
  }

  async playOnce() {
    const client = connect(this.targets.current());
    try {
      return await this.stream(client);
    } finally {
      client.close();
    }
  }

  stream(client) {
    return new Promise((resolve, reject) => {
      const call = client.Play();
      let progressed = false;
      let current = null;
      let done = false;
      const fellBack = new Set();
      const send = (req) => {
        if (this.trace) this.trace('send', redact(req));
        call.write(req);
      };
      const finish = (fn, value) => {
        if (done) return;
        done = true;
        fn(value);
      };
      call.on('data', (resp) => {
        progressed = true;
        if (this.trace) this.trace('recv', resp);
        switch (resp.msg) {
          case 'joined':
            // eventsSeen stays unknown until the first event: a first join (or a new process
            // taking over the seat) gets what the seat has not been sent yet, which need not
            // start at event 0.
            if (this.bot.joined) this.bot.joined(resp.joined);
            break;
          case 'events':
            this.events(resp.events.events);
            break;
          case 'decision': {
            const d = resp.decision;
            this.events(d.events);
            current = d;
            this.decisions++;
            if (this.probeReject) {
              this.probeReject = false;
              this.log(`probe: answering ${d.decision_id} with out-of-range index ${d.legal.length}`);
              send({ answer: answerFor(d, d.legal.length) });
              break;
            }
            send({ answer: answerFor(d, this.choose(d)) });
            break;
          }
          case 'accepted':
            this.events(resp.accepted.events);
            break;
          case 'rejected': {
            const rej = resp.rejected;
            this.rejections++;
            this.log(`rejected ${rej.decision_id}: ${rej.code}: ${rej.reason}`);
            if (this.bot.rejected) this.bot.rejected(rej);
            // The decision still stands until its deadline: answer it with a listed action
            // rather than lose the turn to the clock. A stale rejection means a newer decision
            // is on its way, so there is nothing to fall back for.
            if (current && rej.decision_id === current.decision_id && rej.code !== 'REJECT_CODE_STALE_DECISION'
              && current.legal.length > 0 && !fellBack.has(current.decision_id)) {
              fellBack.add(current.decision_id);
              this.log(`falling back to legal[0] = ${JSON.stringify(current.legal_notation[0])}`);
              send({ answer: answerFor(current, 0) });
            }
            break;
          }
          case 'ended':
            call.end();
            call.cancel();
            finish(resolve, resp.ended);
            break;
          default:
            this.log(`ignoring an unknown message on the stream: ${resp.msg}`);
        }
      });
      call.on('error', (err) => {
        finish(reject, new StreamError(err.code ?? grpc.status.UNKNOWN, err.details || err.message, progressed));
      });
      call.on('end', () => {
        finish(reject, new StreamError(grpc.status.UNAVAILABLE, 'stream closed before the match ended', progressed));
      });
      // The bots read the typed view and the lists, never the text (docs/protocol.md, "Asking for less").
      const join = { token: this.token, receive: RECEIVE };
      if (this.eventsSeen !== null) join.events_seen = String(this.eventsSeen);
      send({ join });
    });
  }

  choose(d) {
    if (d.legal.length === 0 && d.legal_notation.length === 0) return 0;
    try {
      const choice = this.bot.act(d);
      return choice === null || choice === undefined ? 0 : choice;
    } catch (err) { // a bug in a strategy must not cost the seat its turn
      this.log(`bot failed on ${d.decision_id} (${err && err.message}); playing legal[0]`);
      return 0;
    }
  }

  events(evs) {
    for (const e of evs || []) {
      if (this.eventsSeen !== null && Number(e.seq) !== this.eventsSeen) {
        this.log(`event gap: got event ${e.seq} where ${this.eventsSeen} was expected`);
      }
      this.eventsSeen = Number(e.seq) + 1;
      if (this.bot.event) this.bot.event(e);
    }
  }
}

// LadderPlayer plays a registered bot's matches on one ladder stream, several at once. The
// stream opens with "authorization: bearer <key>" and LadderJoin; the server then seats the bot
// in ladder matches (unless tournamentsOnly) and in server-run tournaments' matches, and every
// message names its match_id: answers are routed back by it. newBot(matchId) makes the bot of
// one match. A dropped stream is rejoined as Player does; the server seats the bot again in the
// matches it was playing. play() resolves with the MatchEnded messages once `matches` matches
// have ended (0: when the server closes the stream), closing the stream to leave.
class LadderPlayer {
  constructor(target, key, newBot, opts = {}) {
    this.targets = new Targets(target);
    this.key = key;
    this.newBot = newBot;
    this.games = opts.games || [];
    this.maxMatches = opts.maxMatches ?? 1;
    this.tournamentsOnly = !!opts.tournamentsOnly;
    this.matches = opts.matches ?? 0;
    this.log = opts.log || ((msg) => process.stderr.write(`${msg}\n`));
    this.trace = opts.trace || null;
    this.maxBackoffMs = opts.maxBackoffMs ?? 5000;
    this.reconnects = opts.reconnects ?? 20;
    this.bots = new Map(); // match id -> its bot
    this.ended = [];
    this.decisions = 0;
    this.rejections = 0;
    this.rejoins = 0;
    this.connects = 0; // the ladder joins the server took
  }

  play() {
    return withRejoins(this, async () => {
      const client = connect(this.targets.current());
      try {
        await this.stream(client);
        return this.ended;
      } finally {
        client.close();
      }
    }, 'ladder stream lost');
  }

  stream(client) {
    return new Promise((resolve, reject) => {
      const md = new grpc.Metadata();
      md.set('authorization', `bearer ${this.key}`);
      const call = client.Play(md);
      let progressed = false;
      let done = false;
      let leaving = false;
      // The server's response headers say it took the ladder join, before any match.
      call.on('metadata', (header) => {
        if (header.get('orrery-ladder-joined').length === 0) return;
        const what = this.tournamentsOnly ? 'waiting for tournament matches' : 'on the ladder';
        this.log(this.connects === 0
          ? `connected to ${this.targets.current()}, ${what}`
          : `reconnected to ${this.targets.current()} (reconnection ${this.connects}), ${what}; matches in play resume`);
        this.connects++;
      });
      const current = new Map(); // match id -> the decision owed there
      const fellBack = new Set();
      const send = (req) => {
        if (leaving) return; // the stream is half-closed: the rest of its matches run out
        if (this.trace) this.trace('send', req);
        call.write(req);
      };
      const finish = (fn, value) => {
        if (done) return;
        done = true;
        fn(value);
      };
      const botOf = (id) => {
        if (!this.bots.has(id)) this.bots.set(id, this.newBot(id));
        return this.bots.get(id);
      };
      const events = (id, evs) => {
        const bot = this.bots.get(id);
        if (bot && bot.event) for (const e of evs || []) bot.event(e);
      };
      call.on('data', (resp) => {
        progressed = true;
        if (this.trace) this.trace('recv', resp);
        switch (resp.msg) {
          case 'joined': {
            const bot = botOf(resp.joined.match_id);
            if (bot.joined) bot.joined(resp.joined);
            break;
          }
          case 'events':
            events(resp.events.match_id, resp.events.events);
            break;
          case 'decision': {
            const d = resp.decision;
            events(d.match_id, d.events);
            current.set(d.match_id, d);
            this.decisions++;
            send({ answer: answerFor(d, this.choose(botOf(d.match_id), d)) });
            break;
          }
          case 'accepted':
            events(resp.accepted.match_id, resp.accepted.events);
            break;
          case 'rejected': {
            const rej = resp.rejected;
            this.rejections++;
            this.log(`rejected ${rej.match_id} ${rej.decision_id}: ${rej.code}: ${rej.reason}`);
            const bot = this.bots.get(rej.match_id);
            if (bot && bot.rejected) bot.rejected(rej);
            const d = current.get(rej.match_id);
            const key = `${rej.match_id} ${rej.decision_id}`;
            if (d && rej.decision_id === d.decision_id && rej.code !== 'REJECT_CODE_STALE_DECISION'
              && d.legal.length > 0 && !fellBack.has(key)) {
              fellBack.add(key);
              send({ answer: answerFor(d, 0) });
            }
            break;
          }
          case 'ended': {
            const e = resp.ended;
            this.bots.delete(e.match_id);
            current.delete(e.match_id);
            this.ended.push(e);
            const res = e.result || { ranks: [], reason: 'END_REASON_UNSPECIFIED' };
            this.log(`match ${e.match_id} ended (${res.reason}): seat ${e.seat} rank ${res.ranks[e.seat] ?? '?'} of ${res.ranks.length}`);
            if (this.matches > 0 && this.ended.length >= this.matches && !leaving) {
              leaving = true;
              call.end(); // the half-close tells the server the bot leaves
            }
            break;
          }
          default:
            this.log(`ignoring an unknown message on the stream: ${resp.msg}`);
        }
      });
      call.on('error', (err) => {
        if (leaving) finish(resolve);
        else finish(reject, new StreamError(err.code ?? grpc.status.UNKNOWN, err.details || err.message, progressed));
      });
      call.on('end', () => {
        if (leaving) finish(resolve);
        else finish(reject, new StreamError(grpc.status.UNAVAILABLE, 'the server closed the ladder stream', progressed));
      });
      send({ ladder: { games: this.games, max_matches: this.maxMatches, tournaments_only: this.tournamentsOnly, receive: RECEIVE } });
    });
  }

  choose(bot, d) {
    if (d.legal.length === 0 && d.legal_notation.length === 0) return 0;
    try {
      const choice = bot.act(d);
      return choice === null || choice === undefined ? 0 : choice;
    } catch (err) { // a bug in a strategy must not cost the seat its turn
      this.log(`bot failed on ${d.match_id} ${d.decision_id} (${err && err.message}); playing legal[0]`);
      return 0;
    }
  }
}

module.exports = { PROTO_DIR, LOADER_OPTIONS, NOTE_LIMIT, RETRYABLE, LadderPlayer, Noted, Player, Targets, answerFor, connect, load, unary, grpc };
