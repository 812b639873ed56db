package ladder

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"sync"
	"time"

	"google.golang.org/grpc"

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

// connectedCluster reports whether bot id has a stream on a live node.
func (l *Ladder) connectedCluster(id int64) bool {
	var one int
	err := l.db.QueryRowContext(l.ctx, `SELECT 1 FROM ladder_streams s JOIN nodes n ON n.id = s.node_id
		WHERE s.bot_id = ? AND n.seen_ns >= ?`, id, store.UnixNano(l.now().Add(-l.cfg.Cluster.TTL))).Scan(&one)
	return err == nil
}
