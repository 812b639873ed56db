package ladder

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/store"
)

// The cluster's matches: the matchmaker forms them from the published streams, creates
// them on its node, and each node plays the house seats of the matches it runs.

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
