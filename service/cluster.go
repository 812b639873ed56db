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

// claim lists the running matches this node should run now: those it already owns and are
// not in memory, and every orphan it wins the lease of. Without a Node, every unfinished
// match is this server's (one server per store).
func (s *Server) claim(ctx context.Context) ([]*store.Match, error) {
	n := s.cfg.Node
	if n == nil {
		return s.store.Unfinished(ctx)
	}
	now := s.now()
	orphans, err := s.store.Orphans(ctx, now)
	if err != nil {
		return nil, err
	}
	var out []*store.Match
	for _, rec := range orphans {
		if s.lookup(rec.ID) != nil {
			// Ours and running here, its lease lapsed (a slow heartbeat): take it back.
			if _, err := s.store.Acquire(ctx, rec.ID, n.ID, now, n.LeaseTTL); err != nil {
				return nil, err
			}
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
	return out, nil
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

// heartbeat records the node, renews its leases and takes over the orphans.
func (s *Server) heartbeat(ctx context.Context) error {
	n := s.cfg.Node
	if _, err := s.store.Heartbeat(ctx, n.ID, n.Addr, s.now(), n.LeaseTTL); err != nil {
		return err
	}
	return s.resume()
}

// leaseLoop beats every LeaseTTL/3 until the server closes.
func (s *Server) leaseLoop() {
	defer s.loops.Done()
	t := time.NewTicker(s.cfg.Node.LeaseTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			if err := s.heartbeat(s.ctx); err != nil && s.ctx.Err() == nil {
				s.log.Error("node heartbeat", "node", s.cfg.Node.ID, "err", err)
			}
		}
	}
}
