package ladder

import (
	"cmp"
	"slices"
	"sort"
	"time"
)

// Table is how the matchmaker seats one game.
type Table struct {
	Seats    int // the seats a match has when enough bots wait
	MinSeats int // the fewest seats a filled match may have (the game's minimum)
	House    int // house bots available to fill seats
}

// Params tune the matchmaker.
type Params struct {
	Tables map[string]Table
	// Window is how far apart (in mu) bots may be to share a match at once; it widens by
	// Widen per second a bot has waited, so nobody waits for a perfect match forever.
	Window float64
	Widen  float64
	// FillAfter is the wait after which a bot's match is completed with house bots.
	FillAfter time.Duration
}

// Group is a match the matchmaker formed: the bots, and how many house bots complete it.
type Group struct {
	Game string
	Bots []int64
	Fill int
	// Mu is the bots' mean rating, for choosing house bots near it.
	Mu float64
}

// Queue holds the bots waiting for matches. It is not safe for concurrent use; the ladder
// guards it with its mutex.
type Queue struct {
	p       Params
	entries map[int64]*waiting
	turn    int // the game each Match call starts from
	// scratch, reused between calls
	pool  []*waiting
	order []int32
	prev  []int32
	next  []int32
}

// waiting is one bot in the queue.
type waiting struct {
	bot   int64
	games []string
	mu    []float64 // rating per game, index for index
	since time.Time
	room  int // matches it may still join
	// during Match:
	cur  float64 // rating in the game being matched
	gone bool    // taken in the game being matched
}

// NewQueue makes an empty queue.
func NewQueue(p Params) *Queue {
	return &Queue{p: p, entries: make(map[int64]*waiting)}
}

// Put queues bot (or updates it) for games, with its rating in each, waiting since since,
// with room for that many more matches. Room 0 removes it.
func (q *Queue) Put(bot int64, games []string, mu []float64, since time.Time, room int) {
	if room <= 0 || len(games) == 0 {
		delete(q.entries, bot)
		return
	}
	q.entries[bot] = &waiting{bot: bot, games: games, mu: mu, since: since, room: room}
}

// Remove takes bot out of the queue.
func (q *Queue) Remove(bot int64) { delete(q.entries, bot) }

// Since is when bot began waiting, if it is queued.
func (q *Queue) Since(bot int64) (time.Time, bool) {
	if w, ok := q.entries[bot]; ok {
		return w.since, true
	}
	return time.Time{}, false
}

// Clear empties the queue; the cluster's matchmaker fills it afresh from the database on
// each pass.
func (q *Queue) Clear() { clear(q.entries) }

// Len is the number of waiting bots.
func (q *Queue) Len() int { return len(q.entries) }

// Waiting reports whether bot is queued, and for which games.
func (q *Queue) Waiting(bot int64) []string {
	if w, ok := q.entries[bot]; ok {
		return w.games
	}
	return nil
}

// window is how far apart in mu a bot that has waited wait accepts partners.
func (q *Queue) window(wait time.Duration) float64 {
	return q.p.Window + q.p.Widen*wait.Seconds()
}

// Match forms the matches it can now, taking their bots' room, and returns them. For each
// game, the longest-waiting bot anchors a match with the bots nearest it in rating within its
// window; once it has waited FillAfter, house bots complete what is missing. A bot joins at
// most one match per game per call, and keeps its place in the queue while it has room for
// more. It costs O(n log n) in the n waiting bots.
func (q *Queue) Match(now time.Time) []Group {
	var groups []Group
	games := make([]string, 0, len(q.p.Tables))
	for g := range q.p.Tables {
		games = append(games, g)
	}
	sort.Strings(games)
	// Each call starts from the next game, so a bot queued for several games with room for
	// one match at a time does not always land in the first.
	for i := range games {
		game := games[(i+q.turn)%len(games)]
		groups = q.matchGame(now, game, q.p.Tables[game], groups)
	}
	q.turn++
	for id, w := range q.entries {
		if w.room <= 0 {
			delete(q.entries, id)
		}
	}
	return groups
}

func (q *Queue) matchGame(now time.Time, game string, t Table, groups []Group) []Group {
	if t.Seats < 2 {
		return groups
	}
	pool := q.pool[:0]
	for _, w := range q.entries {
		if w.room > 0 && slices.Contains(w.games, game) {
			w.gone, w.cur = false, w.mu[slices.Index(w.games, game)]
			pool = append(pool, w)
		}
	}
	q.pool = pool
	if len(pool) == 0 {
		return groups
	}
	slices.SortFunc(pool, func(a, b *waiting) int {
		if c := cmp.Compare(a.cur, b.cur); c != 0 {
			return c
		}
		return cmp.Compare(a.bot, b.bot)
	})
	n := int32(len(pool))
	q.prev, q.next, q.order = resize(q.prev, n), resize(q.next, n), resize(q.order, n)
	ratings := make([]float64, n)
	for i, w := range pool {
		ratings[i] = w.cur
		q.prev[i], q.next[i], q.order[i] = int32(i)-1, int32(i)+1, int32(i)
	}
	q.next[n-1] = -1
	unlink := func(i int32) {
		pool[i].gone = true
		if p := q.prev[i]; p >= 0 {
			q.next[p] = q.next[i]
		}
		if nx := q.next[i]; nx >= 0 {
			q.prev[nx] = q.prev[i]
		}
	}
	slices.SortFunc(q.order, func(a, b int32) int {
		if c := pool[a].since.Compare(pool[b].since); c != 0 {
			return c
		}
		return cmp.Compare(pool[a].bot, pool[b].bot)
	})
	picked := make([]int32, 0, t.Seats)
	for _, a := range q.order {
		anchor := pool[a]
		if anchor.gone {
			continue
		}
		wait := now.Sub(anchor.since)
		w := q.window(wait)
		picked = append(picked[:0], a)
		l, r := q.prev[a], q.next[a]
		for len(picked) < t.Seats {
			dl, dr := -1.0, -1.0
			if l >= 0 {
				dl = ratings[a] - ratings[l]
			}
			if r >= 0 {
				dr = ratings[r] - ratings[a]
			}
			switch {
			case dl >= 0 && dl <= w && (dr < 0 || dr > w || dl <= dr):
				picked = append(picked, l)
				l = q.prev[l]
			case dr >= 0 && dr <= w:
				picked = append(picked, r)
				r = q.next[r]
			default:
				l, r = -1, -1
			}
			if l < 0 && r < 0 {
				break
			}
		}
		fill := 0
		if len(picked) < t.Seats {
			if wait < q.p.FillAfter {
				continue
			}
			fill = min(t.Seats-len(picked), t.House)
			if len(picked)+fill < max(t.MinSeats, 2) {
				continue
			}
		}
		g := Group{Game: game, Fill: fill, Bots: make([]int64, len(picked))}
		for i, p := range picked {
			w := pool[p]
			g.Bots[i] = w.bot
			g.Mu += ratings[p]
			// A bot with room left keeps its place: it has waited as long for its next match.
			w.room--
			unlink(p)
		}
		g.Mu /= float64(len(picked))
		groups = append(groups, g)
	}
	return groups
}

func resize(s []int32, n int32) []int32 {
	if int32(cap(s)) < n {
		return make([]int32, n)
	}
	return s[:n]
}
