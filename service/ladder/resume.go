package ladder

import (
	"context"
	"fmt"

	"github.com/orrery/orrery/service/store"
)

// resumeMatches takes up the ladder matches a restart left unfinished, as a cluster's node
// takes up a dead node's: each seat recorded in ladder_seats plays on, a house seat here at
// once and a registered bot's on its ladder stream as soon as the bot reconnects
// (ServeLadder), so that the match finishes by the rules and is rated in its place in
// creation order. A match with no seats recorded (started by a version that did not record
// them) nobody can play: it ends aborted, unrated, rather than be played out by the clock.
// It returns how many matches resumed.
func (l *Ladder) resumeMatches(ctx context.Context) (int, error) {
	ids, err := l.db.unfinished(ctx)
	if err != nil {
		return 0, err
	}
	seats, err := l.db.unfinishedSeats(ctx)
	if err != nil {
		return 0, err
	}
	// The seats of matches that ended before the restart are no longer needed (nor secret
	// to anyone any more, but there is no reason to keep them).
	if _, err := l.db.ExecContext(ctx, `DELETE FROM ladder_seats WHERE match_id IN (`+store.EndedIDs+`)`); err != nil {
		return 0, err
	}
	resumed := 0
	for _, id := range ids {
		lm, err := l.resumedMatch(id, seats[id])
		if err != nil {
			l.log.Warn("ladder: cannot resume a match; aborting it", "match", id, "err", err)
			l.arena.Abort(ctx, id, "orphaned by a server restart: the ladder's seats were lost")
			l.wg.Add(1)
			go l.watch(&liveMatch{id: id})
			continue
		}
		resumed++
		l.mu.Lock()
		l.live[id] = lm
		if lm.houseOnly {
			l.houseLive++
		}
		l.mu.Unlock()
		for seat, h := range lm.house {
			if h != nil {
				l.wg.Add(1)
				go l.playHouse(lm, seat, h)
			}
		}
		l.wg.Add(1)
		go l.watch(lm)
	}
	return resumed, nil
}

// resumedMatch rebuilds the liveMatch of an unfinished ladder match from its recorded seats;
// its registered bots' seats have no runner until their bots reconnect.
func (l *Ladder) resumedMatch(id string, seats []assignedSeat) (*liveMatch, error) {
	if len(seats) == 0 || len(seats) != seats[0].seats {
		return nil, fmt.Errorf("%d of its seats recorded", len(seats))
	}
	n := seats[0].seats
	lm := &liveMatch{id: id, game: seats[0].game, bots: make([]int64, n), house: make([]*House, n),
		tokens: make([]string, n), runner: make([]*conn, n), houseOnly: true}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, a := range seats {
		if a.seat < 0 || a.seat >= n || lm.tokens[a.seat] != "" {
			return nil, fmt.Errorf("seat %d recorded twice or out of range", a.seat)
		}
		lm.bots[a.seat], lm.tokens[a.seat] = a.bot, a.token
		b := l.bots[a.bot]
		if b == nil {
			return nil, fmt.Errorf("seat %d: no bot %d", a.seat, a.bot)
		}
		// The ladder plays a house bot's seat, and a hosted bot's (a registered bot with an
		// entry among the house bots); a registered bot's stream plays any other.
		for i, h := range l.house[lm.game] {
			if h.Bot == b.name {
				lm.house[a.seat] = &l.house[lm.game][i]
			}
		}
		if lm.house[a.seat] != nil {
			continue
		}
		if b.house {
			return nil, fmt.Errorf("seat %d: house bot %s no longer plays %s", a.seat, b.name, lm.game)
		}
		lm.houseOnly = false
	}
	return lm, nil
}
