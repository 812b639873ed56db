package limits

import (
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// What one caller may hold at once, or schedule in an hour. The caller is who limits.Create
// counts: the peer's host, or the client a trusted hop vouched for (service/caller).

// Own counts a live match that caller is creating, refusing it when the caller already has
// its limit running (on this server). The claim is bound to the match once it exists
// (Claim.Bind), and given back when the match ends (Disown), or at once if it was never
// made (Claim.Drop). In-process callers ("") are not counted.
func (l *Limits) Own(caller string) (*Claim, error) {
	if caller == "" {
		return &Claim{}, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.owned[caller] >= l.cfg.LivePerCaller {
		return nil, status.Errorf(codes.ResourceExhausted, "live matches per caller: you have %d running, the limit (serve --max-matches-per-caller); let one end first", l.cfg.LivePerCaller)
	}
	l.owned[caller]++
	return &Claim{l: l, caller: caller}, nil
}

// Claim is a caller's place for one live match.
type Claim struct {
	l      *Limits
	caller string
}

// Bind ties the place to match id, to be given back by Disown(id).
func (c *Claim) Bind(id string) {
	if c.l == nil {
		return
	}
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	c.l.ownerOf[id] = c.caller
}

// Drop gives back the place of a match that was not made.
func (c *Claim) Drop() {
	if c.l == nil {
		return
	}
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	c.l.decLocked(c.l.owned, c.caller)
}

// Disown gives back the place of match id, which has ended or left this server.
func (l *Limits) Disown(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if caller, ok := l.ownerOf[id]; ok {
		delete(l.ownerOf, id)
		l.decLocked(l.owned, caller)
	}
}

func (l *Limits) decLocked(counts map[string]int, key string) {
	if counts[key]--; counts[key] <= 0 {
		delete(counts, key)
	}
}

// releaser decrements counts[key] once.
func (l *Limits) releaser(counts map[string]int, key string) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.decLocked(counts, key)
		})
	}
}

// Schedule counts the matches of a tournament caller asks for against the caller's hourly
// budget of scheduled matches (--open-tournaments), refusing a tournament that does not fit.
// Callers with the admin key, and in-process callers (""), are not counted.
func (l *Limits) Schedule(caller string, matches int, now time.Time) error {
	if caller == "" {
		return nil
	}
	budget := l.cfg.TournamentMatches
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.scheduled[caller]
	if w == nil || now.Sub(w.start) >= time.Hour {
		if len(l.scheduled) > 4096 {
			for k, v := range l.scheduled {
				if now.Sub(v.start) >= time.Hour {
					delete(l.scheduled, k)
				}
			}
		}
		w = &window{start: now}
		l.scheduled[caller] = w
	}
	if budget < 0 || w.n+matches > budget {
		left := max(budget-w.n, 0)
		return status.Errorf(codes.ResourceExhausted, "tournament matches per caller per hour: %d asked for, %d left of %d (serve --open-tournaments, or the admin key); try again in %v",
			matches, left, max(budget, 0), (time.Hour - now.Sub(w.start)).Round(time.Second))
	}
	w.n += matches
	return nil
}

// WatchBy admits one more spectator of match from caller: at most SpectatorsPerMatch in all,
// and SpectatorsPerCaller of them from one caller, so that one client cannot take every
// place. release ends its watch.
func (l *Limits) WatchBy(match, caller string) (release func(), err error) {
	key := match + "\x00" + caller
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.spectators[match] >= l.cfg.SpectatorsPerMatch {
		return nil, status.Errorf(codes.ResourceExhausted, "spectators per match: %d already watch (serve --max-spectators)", l.cfg.SpectatorsPerMatch)
	}
	if caller != "" && l.watching[key] >= l.cfg.SpectatorsPerCaller {
		return nil, status.Errorf(codes.ResourceExhausted, "spectators per caller: you watch this match %d times already (serve --max-spectators-per-caller)", l.cfg.SpectatorsPerCaller)
	}
	l.spectators[match]++
	var byCaller func()
	if caller != "" {
		l.watching[key]++
		byCaller = l.releaser(l.watching, key)
	}
	all := l.releaser(l.spectators, match)
	return func() {
		all()
		if byCaller != nil {
			byCaller()
		}
	}, nil
}
