package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/credentials"

	"github.com/orrery/orrery/service/store"
)

// Node makes a server one node of several on a shared (PostgreSQL) store. Each running match
// is owned by the node holding its lease; the node renews its leases every LeaseTTL/3, and
// takes over, rebuilding from the log as a restart does, every running match whose lease
// expired (its node died) or that has none.
type Node struct {
	ID       string        // unique among the nodes
	Addr     string        // the gRPC address the other nodes reach it at
	LeaseTTL time.Duration // how long a lease outlives its node; default 9s (orphans within 10s)
	// Creds are how this node dials the others to relay calls (forward.go): TLS when the
	// nodes serve TLS; nil: plaintext.
	Creds credentials.TransportCredentials
}

const defaultLeaseTTL = 9 * time.Second

// errLeaseHeld says another node owns a match.
var errLeaseHeld = errors.New("another node holds the lease")

// claim lists the running matches this node should run now: those it holds the lease of
// and are not in memory (it dropped them, then renewed the lease before it lapsed), and every
// orphan it wins the lease of. Without a Node, every unfinished match is this server's (one
// server per store).
func (s *Server) claim(ctx context.Context) ([]*store.Match, error) {
	n := s.cfg.Node
	if n == nil {
		return s.store.Unfinished(ctx)
	}
	now := s.now()
	held, err := s.store.Held(ctx, n.ID, now)
	if err != nil {
		return nil, err
	}
	var strays []string
	for _, id := range held {
		if s.lookup(id) == nil && !s.isCreating(id) {
			strays = append(strays, id)
		}
	}
	orphans, err := s.store.Orphans(ctx, now)
	if err != nil {
		return nil, err
	}
	var out []*store.Match
	dropped := false
	for _, rec := range orphans {
		if m := s.lookup(rec.ID); m != nil {
			// Running here, but its lease lapsed unnoticed (the process stood still past the
			// fence): another node may have run it meanwhile. It goes, and a later pass takes
			// it from its log.
			s.drop(m)
			dropped = true
			continue
		}
		won, err := s.store.Acquire(ctx, rec.ID, n.ID, now, n.LeaseTTL)
		if err != nil {
			return nil, err
		}
		if won {
			out = append(out, rec)
		}
	}
	for _, id := range strays {
		rec, err := s.store.Match(ctx, id)
		if err != nil {
			return nil, err
		}
		if rec.Result == nil {
			out = append(out, rec)
		}
	}
	if dropped || len(out) > 0 {
		// What the writer still holds of these matches (from before they were dropped here)
		// is written, or refused by the lease check, before their logs are read: a step
		// written after the replay would fork the log.
		s.writer.sync()
	}
	return out, nil
}

// isCreating reports whether Create is starting match id: leased, not yet in memory.
func (s *Server) isCreating(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.creating[id]
}

// lease takes the lease of a match this node is creating, before the match is stored, so
// that no other node's takeover finds it unowned.
func (s *Server) lease(ctx context.Context, matchID string) error {
	n := s.cfg.Node
	if n == nil || s.store == nil {
		return nil
	}
	won, err := s.store.Acquire(ctx, matchID, n.ID, s.now(), n.LeaseTTL)
	if err == nil && !won {
		err = errLeaseHeld // a random id already leased: never in practice
	}
	if err != nil {
		return fmt.Errorf("lease of new match %s: %w", matchID, err)
	}
	return nil
}

// heartbeat records the node, renews its leases and takes over the orphans: New's first
// beat, before the loops start.
func (s *Server) heartbeat(ctx context.Context) error {
	if err := s.renew(ctx); err != nil {
		return err
	}
	return s.resume()
}

// renew records that the node is alive and extends its leases; on success it notes the
// time the leases now run from, which fencing counts from (fenceTick).
func (s *Server) renew(ctx context.Context) error {
	n := s.cfg.Node
	now := s.now()
	// A slow renewal still counts until the fence would stop the node's matches anyway.
	ctx, cancel := context.WithTimeout(ctx, fenceAfter(n.LeaseTTL))
	defer cancel()
	if _, err := s.store.Heartbeat(ctx, n.ID, n.Addr, now, n.LeaseTTL); err != nil {
		return err
	}
	s.renewed.Store(now.UnixNano())
	return nil
}

// The node's three loops run apart, so that a slow takeover (replaying many logs) never
// delays a renewal, and a renewal hung on a dead database never delays the fence.

// every calls f every d until the server closes (one of s.loops).
func (s *Server) every(d time.Duration, f func()) {
	defer s.loops.Done()
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}

// renewTick renews the node's leases, every LeaseTTL/3. It does nothing else: a renewal must
// never wait for the writer or a takeover.
func (s *Server) renewTick() {
	if err := s.renew(s.ctx); err != nil && s.ctx.Err() == nil {
		s.log.Error("node heartbeat", "node", s.cfg.Node.ID, "err", err)
	}
}

// claimTick takes over the orphaned matches, every LeaseTTL/3, and brings a fenced node back
// once it renews again.
func (s *Server) claimTick() {
	if s.isFenced() {
		// Cut off: it takes nothing until it renews again, and then first hands back
		// what it dropped.
		if s.now().Sub(time.Unix(0, s.renewed.Load())) < fenceAfter(s.cfg.Node.LeaseTTL) {
			if err := s.unfence(s.ctx); err != nil && s.ctx.Err() == nil {
				s.log.Error("node back from a fence", "node", s.cfg.Node.ID, "err", err)
			}
		}
		return
	}
	if err := s.resume(); err != nil && s.ctx.Err() == nil {
		s.log.Error("node takeover", "node", s.cfg.Node.ID, "err", err)
	}
}

// fenceAfter is how long after its last renewal a node that cannot renew stops its matches:
// two renewals missed, a third of a lease before any of them can expire, so that another
// node never runs a match this one still plays (clock skew between nodes must stay well
// under that third).
func fenceAfter(ttl time.Duration) time.Duration { return ttl * 2 / 3 }

// fenceTick fences the node once its last renewal is fenceAfter old; it runs every
// LeaseTTL/12.
func (s *Server) fenceTick() {
	if s.now().Sub(time.Unix(0, s.renewed.Load())) >= fenceAfter(s.cfg.Node.LeaseTTL) {
		s.fence()
	}
}

// fence stops a node cut off from the database: every running match it holds may soon be
// another node's, so each is dropped from memory (paused for good, its streams ended with
// Unavailable so that its bots rejoin through a node that can reach it), and no match starts
// here until the node renews again.
func (s *Server) fence() {
	s.mu.Lock()
	if s.fenced != nil {
		s.mu.Unlock()
		return
	}
	s.fenced = []string{} // from now on no match starts here (writable)
	s.mu.Unlock()
	ms := s.running()
	ids := make([]string, 0, len(ms))
	for _, m := range ms {
		ids = append(ids, m.id)
	}
	s.mu.Lock()
	s.fenced = ids
	s.mu.Unlock()
	s.log.Error("node cannot renew its leases: its matches stop here and go to the other nodes",
		"node", s.cfg.Node.ID, "matches", len(ms), "last renewal", time.Unix(0, s.renewed.Load()))
	for _, m := range ms {
		s.drop(m)
	}
}

// unfence brings a fenced node back after a renewal: what it applied before the fence is
// written (or refused by the lease check if the lease lapsed meanwhile), and the leases of
// the matches it dropped are handed back, for any node (this one too) to rebuild from
// their logs. Nothing happens if the node is not fenced.
func (s *Server) unfence(ctx context.Context) error {
	s.mu.Lock()
	ids := s.fenced
	s.mu.Unlock()
	if ids == nil {
		return nil
	}
	s.writer.sync()
	if err := s.store.ReleaseMatches(ctx, s.cfg.Node.ID, ids); err != nil {
		return err
	}
	s.mu.Lock()
	s.fenced = nil
	s.mu.Unlock()
	s.log.Info("node renews again; it handed back the matches it dropped", "node", s.cfg.Node.ID, "matches", len(ids))
	return nil
}

func (s *Server) isFenced() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fenced != nil
}

// running lists the matches in memory that have not ended. The server's lock is let go
// before any match's: a match that ends takes them in the other order (release).
func (s *Server) running() []*match {
	s.mu.Lock()
	all := make([]*match, 0, len(s.matches))
	for _, m := range s.matches {
		all = append(all, m)
	}
	s.mu.Unlock()
	ms := all[:0]
	for _, m := range all {
		m.mu.Lock()
		over := m.ended
		m.mu.Unlock()
		if !over {
			ms = append(ms, m)
		}
	}
	return ms
}

// drop takes a match this node no longer owns out of memory: it is paused for good (no
// answer applies, no clock fires), its streams end with Unavailable, and its seats' tokens
// no longer lead here, so a rejoin is relayed to its next owner.
func (s *Server) drop(m *match) {
	m.gone.Store(true)
	s.mu.Lock()
	if s.matches[m.id] == m {
		delete(s.matches, m.id)
		for i := range m.seats {
			delete(s.byToken, m.seats[i].tokenHash)
		}
	}
	s.mu.Unlock()
	m.stopClock()
	now := s.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.paused {
		m.paused, m.pausedAt = true, now
	}
	if !m.ended {
		m.ended = true // its end is the next owner's to record; no clock runs it here
		s.metrics.MatchesRunning.Dec()
		s.live.Add(-1)
	}
	m.scheduleLocked()
	m.notifyLocked()
}

// leave hands the node's matches back when it stops cleanly (Close), after the writer has
// written everything they applied: the other nodes take them at their next heartbeat.
func (s *Server) leave() {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.Node.LeaseTTL)
	defer cancel()
	n, err := s.store.Leave(ctx, s.cfg.Node.ID)
	if err != nil {
		s.log.Error("node leaves: its leases expire by themselves", "node", s.cfg.Node.ID, "err", err)
		return
	}
	s.log.Info("node left the cluster; its matches go to the other nodes", "node", s.cfg.Node.ID, "matches", n)
}

// leasedLog is the writer's store on a node of a cluster: every step and result is written
// only while the node holds the match's lease for a third of a lease more, checked in the
// same transaction (fencing), so a node that lost a match never writes into its log after
// another node took it.
type leasedLog struct{ s *Server }

// until is how long a lease must still run for a write under it: a third of a lease, the
// margin the fence leaves too (fenceAfter), so no other node can take it before the commit.
func (l leasedLog) until() time.Time {
	return l.s.now().Add(l.s.cfg.Node.LeaseTTL - fenceAfter(l.s.cfg.Node.LeaseTTL))
}

func (l leasedLog) WriteBatch(ctx context.Context, b store.Batch) error {
	lost, err := l.s.store.WriteLeasedBatch(ctx, l.s.cfg.Node.ID, l.until(), b)
	if err == nil && len(lost) > 0 {
		l.s.lost(lost)
	}
	return err
}

// lost is told, on the writer's goroutine, of matches whose writes were refused because
// their lease lapsed: each is marked gone at once, before the writer goes on (nobody is
// then told of a result that was not stored), and dropped on a goroutine of its own, as
// the writer must not wait for a match's lock.
func (s *Server) lost(ids []string) {
	for _, id := range ids {
		m := s.lookup(id)
		if m == nil {
			continue
		}
		m.gone.Store(true)
		s.log.Error("a match's lease lapsed before its writes: dropped here, its log goes on elsewhere", "node", s.cfg.Node.ID, "match", id)
		s.drops.Add(1)
		go func() {
			defer s.drops.Done()
			s.drop(m)
		}()
	}
}
