package service

import (
	"context"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/service/cluster"
	"github.com/orrery/orrery/service/match"
)

// entry is a match in the server's memory and the hashes of its seats' tokens, which only
// the server knows: the match knows its seats by number.
type entry struct {
	m      *match.Match
	tokens [][32]byte
}

type seatRef struct {
	e    *entry
	seat engine.Seat
}

// lookup finds a match in memory.
func (s *Server) lookup(id string) *match.Match {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.matches[id]; e != nil {
		return e.m
	}
	return nil
}

// inMemory lists the matches in memory.
func (s *Server) inMemory() []*match.Match {
	s.mu.Lock()
	defer s.mu.Unlock()
	ms := make([]*match.Match, 0, len(s.matches))
	for _, e := range s.matches {
		ms = append(ms, e.m)
	}
	return ms
}

// register puts a started match in memory, where its seats' tokens find it.
func (s *Server) register(m *match.Match, tokens [][32]byte) {
	e := &entry{m: m, tokens: tokens}
	s.mu.Lock()
	s.matches[m.ID()] = e
	for i, h := range tokens {
		s.byToken[h] = seatRef{e: e, seat: engine.Seat(i)}
	}
	s.mu.Unlock()
	m.ReleaseIfIdle() // a resumed log that was complete may be stored as ended already
}

// forgetLocked takes e out of memory: its seats' tokens no longer lead to it.
func (s *Server) forgetLocked(e *entry) {
	delete(s.matches, e.m.ID())
	for _, h := range e.tokens {
		delete(s.byToken, h)
	}
}

// drop takes a match this node no longer owns out of memory (match.HandOff), so that a
// rejoin is relayed to its next owner.
func (s *Server) drop(id string) {
	if m := s.lookup(id); m != nil {
		m.MarkGone() // before its tokens stop leading here: a rejoin meanwhile is told it moved
	}
	s.mu.Lock()
	e := s.matches[id]
	if e != nil {
		s.forgetLocked(e)
	}
	s.mu.Unlock()
	if e != nil {
		e.m.HandOff(s.now())
	}
}

// local is the server as the cluster sees this node's arena (cluster.Local).
type local struct{ s *Server }

var _ cluster.Local = local{}

func (l local) Holds(id string) bool { return l.s.lookup(id) != nil }

func (l local) Creating(id string) bool {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	return l.s.creating[id]
}

func (l local) SeatHere(h [32]byte) bool {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	_, ok := l.s.byToken[h]
	return ok
}

// Running lists the matches in memory that have not ended. The server's lock is let go
// before any match's: a match that ends takes them in the other order (Released).
func (l local) Running() []string {
	var ids []string
	for _, m := range l.s.inMemory() {
		if !m.Ended() {
			ids = append(ids, m.ID())
		}
	}
	return ids
}

func (l local) Resume(ctx context.Context) error { return l.s.resume(ctx) }

func (l local) Drop(id string) { l.s.drop(id) }

func (l local) MarkGone(id string) {
	if m := l.s.lookup(id); m != nil {
		m.MarkGone()
	}
}

func (l local) Sync() { l.s.Sync() }
