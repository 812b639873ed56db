package service

import (
	"time"

	"github.com/orrery/orrery/service/match"
	"github.com/orrery/orrery/service/store"
)

// host is the server as every match's host (match.Host).
type host struct{ s *Server }

var _ match.Host = host{}

// Now is the server's clock.
func (h host) Now() time.Time { return h.s.cfg.Now() }

// Enter lets a match clock fire unless the server is closing; Leave follows.
func (h host) Enter() bool {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.wg.Add(1)
	return true
}

// Leave ends what Enter let in.
func (h host) Leave() { h.s.wg.Done() }

// Step queues a match's logged step for the store (the server has one: Env.Durable).
func (h host) Step(id string, st store.Step) { h.s.writer.Step(id, st) }

// Finish queues a match's result for the store (the server has one: Env.Durable).
func (h host) Finish(id string, ended time.Time, r *store.Result, committed func()) {
	h.s.writer.Finish(id, ended, r, committed)
}

// Ended counts a match out of the running ones.
func (h host) Ended(m *match.Match) {
	h.s.live.Add(-1)
	h.s.limits.Disown(m.ID())
}

// Released drops an ended match whose result is stored from memory: it is served from the
// store from then on, its seats' tokens found there (attachStored). Without a store every
// match stays, as nothing else could serve it.
func (h host) Released(m *match.Match) {
	if h.s.store != nil {
		h.s.reg.remove(m) // a match rebuilt from the store for one caller (load) was never held
	}
}

// SeedWithheld is the one place that decides whether what only a finished match reveals
// (its seed, its replay, its omniscient view) may be shown.
func (h host) SeedWithheld(id string) bool { return h.s.seedWithheld(id) }

// seedWithheld is the one place that decides whether what only a finished match reveals
// (its seed, its replay, its omniscient view) may be shown.
func (s *Server) seedWithheld(id string) bool {
	return s.cfg.Seeds != nil && s.cfg.Seeds.Withheld(id)
}
