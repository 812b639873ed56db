package limits

import (
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// What one caller may hold at once, or schedule in an hour. The caller is who limits.Create
// counts: the peer's host, or the client a trusted hop vouched for (service/caller).

// Own counts a live match created by caller, refusing it when the caller already has its
// limit running; release, when the match ends, gives the place back (once, however often it
// is called). In-process callers ("") are not counted.
func (l *Limits) Own(caller string) (release func(), err error) {
	if caller == "" {
		return func() {}, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.owned[caller] >= l.cfg.LivePerCaller {
		return nil, status.Errorf(codes.ResourceExhausted, "live matches per caller: you have %d running, the limit (serve --max-matches-per-caller); end or finish one first", l.cfg.LivePerCaller)
	}
	l.owned[caller]++
	return l.releaser(l.owned, caller), nil
}

// releaser decrements counts[key] once.
func (l *Limits) releaser(counts map[string]int, key string) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if counts[key]--; counts[key] <= 0 {
				delete(counts, key)
			}
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
