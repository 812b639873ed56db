package ladder

import (
	"slices"
	"sort"
	"time"

	"github.com/orrery/orrery/service"
)

// matchmake runs one matchmaking pass and starts what it formed.
func (l *Ladder) matchmake() {
	now := l.now()
	l.mu.Lock()
	var start []*liveMatch
	for _, g := range l.queue.Match(now) {
		start = append(start, l.planLocked(g, true))
	}
	for l.houseLive < l.cfg.HouseMatches {
		lm := l.planHouseLocked(now)
		if lm == nil {
			break
		}
		l.houseLive++
		start = append(start, lm)
	}
	l.mu.Unlock()
	// One after another: the order the matches are created in is the order they are rated.
	for _, lm := range start {
		if l.start(lm) {
			l.wg.Add(1)
			go l.run(lm)
		}
	}
}

// planLocked seats a group: its bots, house bots near its rating for the missing seats, in a
// random seat order. With streams, each bot's stream here counts the match against its room
// (on a cluster the node of the stream does, when it takes the seat).
func (l *Ladder) planLocked(g Group, streams bool) *liveMatch {
	lm := &liveMatch{game: g.Game}
	for _, id := range g.Bots {
		lm.bots = append(lm.bots, id)
		lm.house = append(lm.house, nil)
		var c *conn
		if streams {
			c = l.conns[id]
		}
		lm.runner = append(lm.runner, c)
		if c != nil {
			c.active++
		}
	}
	if g.Fill > 0 {
		hs := slices.Clone(l.house[g.Game])
		dist := func(h House) float64 {
			d := l.ratingLocked(l.byName[h.Bot].id, g.Game).Mu - g.Mu
			return d * d
		}
		sort.SliceStable(hs, func(i, j int) bool { return dist(hs[i]) < dist(hs[j]) })
		for i := range g.Fill {
			l.addHouseSeat(lm, &hs[i])
		}
	}
	l.shuffleLocked(lm)
	return lm
}

// planHouseLocked seats a match of house bots alone, for the game that has waited longest
// for one; nil if no game has house bots enough.
func (l *Ladder) planHouseLocked(now time.Time) *liveMatch {
	var game string
	for _, g := range l.games {
		t := l.queue.p.Tables[g]
		if len(l.house[g]) < max(t.MinSeats, 2) {
			continue
		}
		if game == "" || l.houseLast[g].Before(l.houseLast[game]) {
			game = g
		}
	}
	if game == "" {
		return nil
	}
	l.houseLast[game] = now
	hs := slices.Clone(l.house[game])
	l.rng.Shuffle(len(hs), func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
	lm := &liveMatch{game: game, houseOnly: true}
	for i := range min(len(hs), l.queue.p.Tables[game].Seats) {
		l.addHouseSeat(lm, &hs[i])
	}
	return lm
}

func (l *Ladder) addHouseSeat(lm *liveMatch, h *House) {
	lm.bots = append(lm.bots, l.byName[h.Bot].id)
	lm.house = append(lm.house, h)
	lm.runner = append(lm.runner, nil)
}

func (l *Ladder) shuffleLocked(lm *liveMatch) {
	l.rng.Shuffle(len(lm.bots), func(i, j int) {
		lm.bots[i], lm.bots[j] = lm.bots[j], lm.bots[i]
		lm.house[i], lm.house[j] = lm.house[j], lm.house[i]
		lm.runner[i], lm.runner[j] = lm.runner[j], lm.runner[i]
	})
}

// ratingLocked is bot id's rating in game, a newcomer's if it has none.
func (l *Ladder) ratingLocked(id int64, game string) Rating {
	if r, ok := l.bots[id].ratings[game]; ok {
		return r.Rating
	}
	return l.model.New()
}

// spec is the arena's description of a planned match.
func (l *Ladder) spec(lm *liveMatch, names []string) service.MatchSpec {
	return service.MatchSpec{
		Game: lm.game, Seats: len(lm.bots), Options: l.cfg.Options[lm.game], Clock: l.cfg.Clock,
		Policy: l.cfg.Policy, Names: names, Bots: lm.bots,
	}
}

// start creates a planned match on the arena and records it with its seats (create, as the
// cluster's matchmaker does, so that a restart finds who plays each seat); false if it could
// not, its bots then queued again.
func (l *Ladder) start(lm *liveMatch) bool {
	err := l.create(lm, make([]string, len(lm.bots)))
	if err == nil {
		return true
	}
	if l.ctx.Err() == nil {
		l.log.Error("ladder: cannot start a match", "game", lm.game, "err", err)
	}
	l.mu.Lock()
	for _, c := range lm.runner {
		if c != nil {
			c.active--
			l.requeueLocked(c)
		}
	}
	if lm.houseOnly {
		l.houseLive--
	}
	l.mu.Unlock()
	return false
}

// run sets a started match's seats playing and waits for its end.
func (l *Ladder) run(lm *liveMatch) {
	defer l.wg.Done()
	id := lm.id
	l.mu.Lock()
	l.live[id] = lm
	for seat, c := range lm.runner {
		if c == nil {
			continue
		}
		// The bot may have reconnected since the match was planned: its newest stream plays.
		if now := l.conns[lm.bots[seat]]; now != c {
			c.active--
			lm.runner[seat] = now
			c = now
			if c != nil {
				c.active++
			}
		}
		if c != nil {
			c.startSeatLocked(lm, seat)
		}
	}
	l.wg.Add(1)
	l.mu.Unlock()
	for seat, h := range lm.house {
		if h != nil {
			l.wg.Add(1)
			go l.playHouse(lm, seat, h)
		}
	}
	l.watch(lm)
}

// watch waits for a ladder match to end, then has it rated.
func (l *Ladder) watch(lm *liveMatch) {
	defer l.wg.Done()
	_, err := l.arena.AwaitEnd(l.ctx, lm.id)
	l.mu.Lock()
	delete(l.live, lm.id)
	if lm.houseOnly {
		l.houseLive--
	}
	l.mu.Unlock()
	if err != nil {
		if l.ctx.Err() == nil {
			l.log.Warn("ladder: lost a match", "match", lm.id, "err", err)
		}
		return // its seats stay recorded: a restart resumes it
	}
	if _, err := l.db.ExecContext(l.ctx, `DELETE FROM ladder_seats WHERE match_id = ?`, lm.id); err != nil && l.ctx.Err() == nil {
		l.log.Error("ladder: forget an ended match's seats", "match", lm.id, "err", err)
	}
	wake(l.rateKick)
	wake(l.kick)
}
