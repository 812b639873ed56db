package ladder

import (
	"context"
	"database/sql"
	"time"

	"google.golang.org/grpc/metadata"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/cluster"
	"github.com/orrery/orrery/service/store"
)

// A cluster node's ladder streams: what each node publishes of its streams, and the seats
// the matchmaker assigned to them.

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
