package ladder

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/cluster"
	"github.com/orrery/orrery/service/store"
)

// Cluster makes the ladder one node's share of a cluster's ladder, on a PostgreSQL store
// that every node shares. The database coordinates:
//   - each node publishes its open ladder streams, and the room each has, in ladder_streams;
//   - one node at a time is the matchmaker, elected by a PostgreSQL advisory lock held on a
//     connection of its own (the lock dies with the session, so when the matchmaker's node
//     dies another node's next tick takes over). It forms the matches from the published
//     queue, creates them on its own node, plays their house seats, and rates finished
//     matches in creation order;
//   - the seats a registered bot plays are rows of ladder_seats naming the node of its
//     stream; that node relays the seat to whichever node runs the match (Reach), so a bot
//     may be connected to any node, and after a node dies it rejoins through any other and
//     its running matches go on;
//   - a house seat is played by the node that runs its match, so a match taken over keeps
//     its house bots.
type Cluster struct {
	Node string        // this node's id (service.Node.ID)
	TTL  time.Duration // the nodes' lease: a node not seen for this long is dead
	// Reach finds the node each match runs on (the arena's *cluster.Cluster); nil: every
	// match runs here.
	Reach Reach
}

// Reach says where a match runs: here (local; the arena's Attach serves the seat), or on
// the node conn reaches, whose calls carry ForwardContext(ctx) (service/cluster).
type Reach interface {
	Owner(ctx context.Context, matchID string) (conn grpc.ClientConnInterface, local bool, err error)
	ForwardContext(ctx context.Context) context.Context
}

// MatchmakerLock is the PostgreSQL advisory lock whose holder is the cluster's matchmaker
// (pg_locks shows it as classid MatchmakerLock>>32, objid the low 32 bits).
const MatchmakerLock int64 = 0x6f72726572790001 // "orrery" 1

// clusterState is what a node of a cluster keeps beside the single-server ladder's fields.
type clusterState struct {
	leader *sql.Conn // the matchmaker lock's session, while this node holds it; the tick's alone
	queue  *Queue    // the matchmaker's queue, filled from ladder_streams each pass; the tick's alone
	ticks  int       // the tick's alone

	houseMu sync.Mutex      // guards house
	house   map[string]bool // house seats ("match/seat") played here now

	connected map[int64]bool // bots with a stream on a live node, as last read; guarded by Ladder.mu
}

// clusterStart starts a cluster node's ladder: its matches were not lost with a restart
// (another node took them over, or this one will), so nothing is aborted.
func (l *Ladder) clusterStart() {
	l.cl.queue = NewQueue(l.queue.p)
	l.cl.house = make(map[string]bool)
	l.wg.Add(1)
	go l.loop(l.cfg.Tick, l.kick, l.clusterTick)
	l.log.Info("ladder started on a cluster node", "node", l.cfg.Cluster.Node, "games", l.games, "bots", len(l.bots))
}

// clusterTick is one round of a node's ladder: take the seats assigned to its streams and
// publish its queue; every few ticks reload the bots and ratings other nodes changed, and
// play the house seats of the matches it now runs; as the matchmaker, form matches and rate.
func (l *Ladder) clusterTick() {
	ctx := l.ctx
	l.cl.ticks++
	if err := l.syncStreams(ctx); err != nil && ctx.Err() == nil {
		l.log.Error("ladder: publish the streams", "err", err)
	}
	slow := l.cl.ticks%8 == 1
	if slow {
		if err := l.reload(ctx); err != nil && ctx.Err() == nil {
			l.log.Error("ladder: reload the bots", "err", err)
		}
		if err := l.playOwnedHouseSeats(ctx); err != nil && ctx.Err() == nil {
			l.log.Error("ladder: house seats", "err", err)
		}
	}
	if !l.lead(ctx) {
		return
	}
	if err := l.matchmakeCluster(ctx); err != nil && ctx.Err() == nil {
		l.log.Error("ladder: matchmaking", "err", err)
	}
	if err := l.ratePending(ctx); err != nil && ctx.Err() == nil {
		l.log.Error("ladder: rating", "err", err)
	}
	if slow {
		if _, err := l.db.ExecContext(ctx, `DELETE FROM ladder_seats WHERE match_id IN (`+store.EndedIDs+`)`); err != nil && ctx.Err() == nil {
			l.log.Error("ladder: forget ended seats", "err", err)
		}
	}
}

// lead reports whether this node is the matchmaker, trying to become it if none is.
func (l *Ladder) lead(ctx context.Context) bool {
	if c := l.cl.leader; c != nil {
		if err := c.PingContext(ctx); err == nil {
			return true
		}
		l.log.Warn("ladder: lost the matchmaker's connection", "node", l.cfg.Cluster.Node)
		discard(c)
		l.cl.leader = nil
	}
	c, err := l.db.Conn(ctx)
	if err != nil {
		return false
	}
	var won bool
	if err := c.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(?)`, MatchmakerLock).Scan(&won); err != nil || !won {
		c.Close()
		return false
	}
	l.cl.leader = c
	l.log.Info("ladder: this node is the matchmaker", "node", l.cfg.Cluster.Node)
	return true
}

// discard closes a connection's session, not returning it to the pool, so that the
// advisory lock it holds is released with it.
func discard(c *sql.Conn) {
	c.Raw(func(any) error { return driver.ErrBadConn })
	c.Close()
}

// clusterClose gives up the matchmaker's lock at once, so another node need not wait.
func (l *Ladder) clusterClose() {
	if c := l.cl.leader; c != nil {
		discard(c)
		l.cl.leader = nil
	}
}

// assignedSeat is a row of ladder_seats.
type assignedSeat struct {
	match      string
	seat       int
	seats      int
	bot        int64
	tournament bool
	token      string
	game       string
}

func scanSeats(rows *sql.Rows) ([]assignedSeat, error) {
	defer rows.Close()
	var out []assignedSeat
	for rows.Next() {
		var a assignedSeat
		if err := rows.Scan(&a.match, &a.seat, &a.seats, &a.bot, &a.tournament, &a.token); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// syncStreams starts the seats the matchmaker (or a tournament) assigned to this node's
// streams, and publishes the streams with their room, in one transaction: a seat taken here
// and the room it took are seen together. A stream whose bot has since joined another node
// is replaced.
func (l *Ladder) syncStreams(ctx context.Context) error {
	node := l.cfg.Cluster.Node
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Its own seats, and the seats of bots whose stream is here that another node cannot
	// play: not yet picked there (assigned while the bot's stream moved here, from a stream
	// list read just before it did), or held by a node that has died. A bot takes up its
	// seats when it joins (publishJoin); these were assigned after it joined, and would wait
	// for its next join while their clocks ran out.
	rows, err := tx.QueryContext(ctx, `UPDATE ladder_seats SET node_id = ?, picked = 1
		WHERE (node_id = ? AND picked = 0) OR (node_id != ? AND house = 0
			AND bot_id IN (SELECT bot_id FROM ladder_streams WHERE node_id = ?)
			AND (picked = 0 OR node_id NOT IN (SELECT id FROM nodes WHERE seen_ns >= ?))
			AND match_id IN (`+store.RunningIDs+`))
		RETURNING match_id, seat, seats, bot_id, tournament, token`, node, node, node, node, store.UnixNano(l.now().Add(-l.cfg.Cluster.TTL)))
	if err != nil {
		return err
	}
	seats, err := scanSeats(rows)
	if err != nil {
		return err
	}
	type published struct {
		bot   int64
		games string
		since time.Time
		room  int
	}
	var pub []published
	var orphaned []assignedSeat // assigned to a stream that has left: whoever it joins next takes them
	now := l.now()
	l.mu.Lock()
	for _, a := range seats {
		c := l.conns[a.bot]
		if c == nil || !c.alive() {
			orphaned = append(orphaned, a)
			continue
		}
		lm := l.seatedLocked(a)
		if lm.runner[a.seat] == nil {
			lm.runner[a.seat] = c
			c.active++
			c.startSeatLocked(lm, a.seat)
		}
	}
	for id, c := range l.conns {
		if !c.alive() {
			continue
		}
		room := 0
		if !c.paused && !c.tournamentsOnly && !c.bot.revoked {
			room = max(c.max-c.active, 0)
		}
		since, ok := l.queue.Since(id)
		if !ok {
			since = now
		}
		pub = append(pub, published{bot: id, games: store.JSON(c.games), since: since, room: room})
	}
	l.mu.Unlock()
	for _, a := range orphaned {
		if _, err := tx.ExecContext(ctx, `UPDATE ladder_seats SET node_id = '', picked = 0 WHERE match_id = ? AND seat = ? AND node_id = ?`,
			a.match, a.seat, node); err != nil {
			return err
		}
	}
	var replaced []int64
	for _, p := range pub {
		res, err := tx.ExecContext(ctx, `UPDATE ladder_streams SET games = ?, since_ns = ?, room = ? WHERE bot_id = ? AND node_id = ?`,
			p.games, store.UnixNano(p.since), p.room, p.bot, node)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			replaced = append(replaced, p.bot) // a newer stream of the bot joined another node
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	l.mu.Lock()
	var stop []*conn
	for _, id := range replaced {
		if c := l.conns[id]; c != nil {
			stop = append(stop, c)
		}
	}
	l.mu.Unlock()
	for _, c := range stop {
		c.stop(errReplaced)
	}
	return nil
}

// seatedLocked is the liveMatch through which this node's streams play a's match, made on
// first use; it lives while a seat of it is played here. l.mu is held.
func (l *Ladder) seatedLocked(a assignedSeat) *liveMatch {
	lm := l.live[a.match]
	if lm == nil {
		lm = &liveMatch{id: a.match, tournament: a.tournament, bots: make([]int64, a.seats), house: make([]*House, a.seats),
			tokens: make([]string, a.seats), runner: make([]*conn, a.seats), seated: true}
		l.live[a.match] = lm
	}
	if a.seat < len(lm.bots) {
		lm.bots[a.seat], lm.tokens[a.seat] = a.bot, a.token
	}
	return lm
}

// publishJoin claims bot's ladder_streams row for this node's new stream and takes the
// seats of its running matches, wherever they were played, to play them here. A stream of
// the bot on another node sees the claim at its next tick and ends, replaced.
func (l *Ladder) publishJoin(ctx context.Context, c *conn) ([]assignedSeat, error) {
	node, b := l.cfg.Cluster.Node, c.bot
	now := store.UnixNano(l.now())
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO ladder_streams (bot_id, node_id, games, since_ns, room, joined_ns) VALUES (?,?,?,?,0,?)
		ON CONFLICT (bot_id) DO UPDATE SET node_id = excluded.node_id, games = excluded.games, since_ns = excluded.since_ns,
		room = 0, joined_ns = excluded.joined_ns`, b.id, node, store.JSON(c.games), now, now); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `UPDATE ladder_seats SET node_id = ?, picked = 1
		WHERE bot_id = ? AND house = 0 AND match_id IN (`+store.RunningIDs+`)
		RETURNING match_id, seat, seats, bot_id, tournament, token`, node, b.id)
	if err != nil {
		return nil, err
	}
	seats, err := scanSeats(rows)
	if err != nil {
		return nil, err
	}
	return seats, tx.Commit()
}

// publishLeave removes a stream that ended from ladder_streams, unless a newer one of its
// bot has claimed the row.
func (l *Ladder) publishLeave(ctx context.Context, bot int64) {
	if _, err := l.db.ExecContext(ctx, `DELETE FROM ladder_streams WHERE bot_id = ? AND node_id = ?`, bot, l.cfg.Cluster.Node); err != nil && ctx.Err() == nil {
		l.log.Error("ladder: unpublish a stream", "err", err)
	}
}

// streamRow is a published stream, as the matchmaker reads it.
type streamRow struct {
	node  string
	games []string
	since time.Time
	room  int
}

// matchmakeCluster is the matchmaker's pass on a cluster: the queue is every live node's
// published streams, less the seats already assigned to them and not yet taken; the matches
// it forms, and the house matches it keeps running, are created here one after another, so
// that their creation order is the order they are rated in.
func (l *Ladder) matchmakeCluster(ctx context.Context) error {
	now := l.now()
	rows, err := l.db.QueryContext(ctx, `SELECT s.bot_id, s.node_id, s.games, s.since_ns,
		s.room - (SELECT COUNT(*) FROM ladder_seats ls JOIN matches m ON m.id = ls.match_id
			WHERE ls.bot_id = s.bot_id AND ls.picked = 0 AND `+store.IsRunning+`)
		FROM ladder_streams s JOIN nodes n ON n.id = s.node_id
		WHERE s.room > 0 AND n.seen_ns >= ? ORDER BY s.bot_id`, store.UnixNano(now.Add(-l.cfg.Cluster.TTL)))
	if err != nil {
		return err
	}
	streams := make(map[int64]streamRow)
	for rows.Next() {
		var id, since int64
		var r streamRow
		var games string
		if err := rows.Scan(&id, &r.node, &games, &since, &r.room); err != nil {
			rows.Close()
			return err
		}
		if err := json.Unmarshal([]byte(games), &r.games); err != nil {
			rows.Close()
			return err
		}
		r.since = store.FromUnixNano(since)
		streams[id] = r
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	houseLive := 0
	if l.cfg.HouseMatches > 0 {
		// A house match is one whose every seat is a house bot's.
		if err := l.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM ladder_matches lm JOIN matches m ON m.id = lm.match_id
			WHERE `+store.IsRunning+` AND EXISTS (SELECT 1 FROM ladder_seats s WHERE s.match_id = lm.match_id)
			AND NOT EXISTS (SELECT 1 FROM ladder_seats s WHERE s.match_id = lm.match_id AND s.house = 0)`).Scan(&houseLive); err != nil {
			return err
		}
	}
	l.mu.Lock()
	q := l.cl.queue
	q.Clear()
	for id, r := range streams {
		b := l.bots[id]
		if b == nil || b.revoked || r.room <= 0 || now.Before(b.pausedUntil) {
			continue
		}
		var games []string
		var mus []float64
		for _, g := range r.games {
			if _, ok := q.p.Tables[g]; ok {
				games = append(games, g)
				mus = append(mus, l.ratingLocked(id, g).Mu)
			}
		}
		q.Put(id, games, mus, r.since, r.room)
	}
	var start []*liveMatch
	for _, g := range q.Match(now) {
		start = append(start, l.planLocked(g, false))
	}
	for ; houseLive < l.cfg.HouseMatches; houseLive++ {
		lm := l.planHouseLocked(now)
		if lm == nil {
			break
		}
		start = append(start, lm)
	}
	l.mu.Unlock()
	for _, lm := range start {
		nodes := make([]string, len(lm.bots))
		for seat, id := range lm.bots {
			if lm.house[seat] == nil {
				nodes[seat] = streams[id].node
			}
		}
		if err := l.create(lm, nodes); err != nil {
			if ctx.Err() == nil {
				l.log.Error("ladder: cannot start a match", "game", lm.game, "err", err)
			}
			continue
		}
		l.wg.Add(1)
		go l.runCluster(lm)
	}
	return nil
}

// create starts a planned match on this node's arena. The match's id and seat tokens are
// drawn first and recorded with its seats, then the match is created with them: the nodes of
// its bots' streams take the seats at their next tick, and a matchmaker dying in between
// leaves rows for a match that never existed (ignored), not a match nobody can play.
func (l *Ladder) create(lm *liveMatch, nodes []string) error {
	names := make([]string, len(lm.bots))
	l.mu.Lock()
	for i, id := range lm.bots {
		names[i] = l.bots[id].name
	}
	l.mu.Unlock()
	keys := service.NewMatchKeys(len(lm.bots))
	tx, err := l.db.BeginTx(l.ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(l.ctx, `INSERT INTO ladder_matches (match_id, game, bot_ids, created_ns) VALUES (?,?,?,?)`,
		keys.ID, lm.game, store.JSON(lm.bots), store.UnixNano(l.now())); err != nil {
		return fmt.Errorf("record ladder match %s: %w", keys.ID, err)
	}
	for seat, bot := range lm.bots {
		if err := insertSeat(l.ctx, tx, keys.ID, seat, len(lm.bots), bot, lm.house[seat] != nil, false, keys.Tokens[seat], nodes[seat]); err != nil {
			return fmt.Errorf("record ladder match %s: %w", keys.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("record ladder match %s: %w", keys.ID, err)
	}
	spec := l.spec(lm, names)
	spec.Keys = keys
	if _, _, _, err := l.arena.Create(l.ctx, spec); err != nil {
		// Nobody can take seats of a match that does not exist; forget them at once.
		_, derr := l.db.ExecContext(l.ctx, `DELETE FROM ladder_seats WHERE match_id = ?`, keys.ID)
		return errors.Join(err, derr)
	}
	lm.id, lm.tokens = keys.ID, keys.Tokens
	l.log.Info("ladder match started", "match", keys.ID, "game", lm.game, "bots", names)
	return nil
}

func insertSeat(ctx context.Context, tx interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, match string, seat, seats int, bot int64, house, tournament bool, token, node string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO ladder_seats (match_id, seat, seats, bot_id, house, tournament, token, node_id)
		VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (match_id, seat) DO NOTHING`, match, seat, seats, bot, house, tournament, token, node)
	return err
}

// runCluster plays a new match's house seats here, where it runs, and wakes the matchmaker
// when it ends.
func (l *Ladder) runCluster(lm *liveMatch) {
	defer l.wg.Done()
	for seat, h := range lm.house {
		if h != nil {
			l.startHouse(lm, seat, h)
		}
	}
	if _, err := l.arena.AwaitEnd(l.ctx, lm.id); err == nil {
		wake(l.kick)
	}
}

// startHouse plays a house seat here unless this node plays it already.
func (l *Ladder) startHouse(lm *liveMatch, seat int, h *House) {
	key := lm.id + "/" + strconv.Itoa(seat)
	l.cl.houseMu.Lock()
	if l.cl.house[key] {
		l.cl.houseMu.Unlock()
		return
	}
	l.cl.house[key] = true
	l.cl.houseMu.Unlock()
	l.wg.Add(1)
	go func() {
		defer func() {
			l.cl.houseMu.Lock()
			delete(l.cl.house, key)
			l.cl.houseMu.Unlock()
		}()
		l.playHouse(lm, seat, h)
	}()
}

// playOwnedHouseSeats plays the house seats of the running ladder matches this node runs and
// does not play yet: those of matches it took over from a dead node.
func (l *Ladder) playOwnedHouseSeats(ctx context.Context) error {
	rows, err := l.db.QueryContext(ctx, `SELECT ls.match_id, ls.seat, ls.seats, ls.bot_id, ls.tournament, ls.token, m.game
		FROM ladder_seats ls JOIN matches m ON m.id = ls.match_id WHERE ls.house = 1 AND `+store.IsRunning)
	if err != nil {
		return err
	}
	var seats []assignedSeat
	for rows.Next() {
		var a assignedSeat
		if err := rows.Scan(&a.match, &a.seat, &a.seats, &a.bot, &a.tournament, &a.token, &a.game); err != nil {
			rows.Close()
			return err
		}
		seats = append(seats, a)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	for _, a := range seats {
		if !l.arena.Holds(a.match) {
			continue
		}
		l.mu.Lock()
		var h *House
		if b := l.bots[a.bot]; b != nil {
			for i, c := range l.house[a.game] {
				if c.Bot == b.name {
					h = &l.house[a.game][i]
				}
			}
		}
		l.mu.Unlock()
		if h == nil {
			continue
		}
		tokens := make([]string, a.seats)
		tokens[a.seat] = a.token
		l.startHouse(&liveMatch{id: a.match, game: a.game, tokens: tokens}, a.seat, h)
	}
	return nil
}

// reload brings the bots and ratings other nodes changed into memory: registrations,
// revocations (whose streams here end), pauses, and the ratings the matchmaker wrote.
func (l *Ladder) reload(ctx context.Context) error {
	rows, err := l.db.bots(ctx)
	if err != nil {
		return err
	}
	ratings, err := l.db.ratings(ctx)
	if err != nil {
		return err
	}
	connected := make(map[int64]bool)
	srows, err := l.db.QueryContext(ctx, `SELECT s.bot_id FROM ladder_streams s JOIN nodes n ON n.id = s.node_id WHERE n.seen_ns >= ?`,
		store.UnixNano(l.now().Add(-l.cfg.Cluster.TTL)))
	if err != nil {
		return err
	}
	for srows.Next() {
		var id int64
		if err := srows.Scan(&id); err != nil {
			srows.Close()
			return err
		}
		connected[id] = true
	}
	if err := errors.Join(srows.Err(), srows.Close()); err != nil {
		return err
	}
	var revoked []*conn
	l.mu.Lock()
	l.cl.connected = connected
	for _, r := range rows {
		b := l.bots[r.id]
		if b == nil {
			l.addBotLocked(&bot{botRow: *r, ratings: make(map[string]storedRating)})
			continue
		}
		if r.revoked && !b.revoked {
			b.revoked = true
			delete(l.byKey, b.keyHash)
			l.queue.Remove(b.id)
			if c := l.conns[b.id]; c != nil {
				revoked = append(revoked, c)
			}
		}
		b.pausedUntil, b.pauseReason, b.timeoutStreak = r.pausedUntil, r.pauseReason, r.timeoutStreak
	}
	for id, byGame := range ratings {
		if b := l.bots[id]; b != nil {
			b.ratings = byGame
		}
	}
	l.mu.Unlock()
	for _, c := range revoked {
		c.stop(errRevoked)
	}
	return nil
}

// seatTournamentCluster records a tournament seat of a registered bot for the node of its
// stream (or for whichever node it joins next), which plays it from its next tick.
func (l *Ladder) seatTournamentCluster(matchID string, seats, seat int, b *bot, token string) error {
	ctx := l.ctx
	var node string
	err := l.db.QueryRowContext(ctx, `SELECT s.node_id FROM ladder_streams s JOIN nodes n ON n.id = s.node_id
		WHERE s.bot_id = ? AND n.seen_ns >= ?`, b.id, store.UnixNano(l.now().Add(-l.cfg.Cluster.TTL))).Scan(&node)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	return insertSeat(ctx, l.db, matchID, seat, seats, b.id, false, true, token, node)
}

// connectedCluster reports whether bot id has a stream on a live node.
func (l *Ladder) connectedCluster(id int64) bool {
	var one int
	err := l.db.QueryRowContext(l.ctx, `SELECT 1 FROM ladder_streams s JOIN nodes n ON n.id = s.node_id
		WHERE s.bot_id = ? AND n.seen_ns >= ?`, id, store.UnixNano(l.now().Add(-l.cfg.Cluster.TTL))).Scan(&one)
	return err == nil
}

// seatLink is a seat a ladder stream plays: *match.Seat when the match runs on this node,
// a relay to the node that runs it otherwise.
type seatLink interface {
	Joined() *orreryv1.Joined
	Run(ctx context.Context, answers <-chan *orreryv1.PlayRequest, send func(*orreryv1.PlayResponse) error) error
	Detach()
}

// link joins seat of lm for c: here, or on the node that runs the match.
func (l *Ladder) link(c *conn, lm *liveMatch, seat int) (seatLink, error) {
	if cl := l.cfg.Cluster; cl != nil && cl.Reach != nil {
		cc, local, err := cl.Reach.Owner(c.ctx, lm.id)
		if err != nil {
			return nil, err
		}
		if !local {
			// The bot's own metadata (its API key) stays on this node: the seat's token is
			// all the owner needs.
			ctx := cl.Reach.ForwardContext(metadata.NewIncomingContext(c.ctx, nil))
			return cluster.DialSeat(ctx, cc, lm.tokens[seat], c.receive)
		}
	}
	st, err := l.arena.Attach(lm.tokens[seat], nil)
	if err != nil {
		return nil, err
	}
	st.SetReceive(c.receive)
	return st, nil
}

// matchOver reports whether match id has a stored result (or is not stored at all).
func (l *Ladder) matchOver(ctx context.Context, id string) bool {
	var running bool
	err := l.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM matches m WHERE m.id = ? AND `+store.IsRunning+`)`, id).Scan(&running)
	return err == nil && !running
}
