// Package cluster makes a server one node of several on a shared PostgreSQL store: leases,
// their renewal and fencing, the takeover of orphaned matches, and the relays of calls to
// the node that owns a match.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/orrery/orrery/service/caller"
	"github.com/orrery/orrery/service/journal"
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

// DefaultLeaseTTL is a lease's life when Node.LeaseTTL is unset.
const DefaultLeaseTTL = 9 * time.Second

// errLeaseHeld says another node owns a match.
var errLeaseHeld = errors.New("another node holds the lease")

// Local is what the cluster needs of this node's arena: which matches run here, and how to
// take one in or let one go.
type Local interface {
	// Holds reports whether match id is in this node's memory.
	Holds(id string) bool
	// Creating reports whether the arena is creating match id: leased, not yet in memory.
	Creating(id string) bool
	// SeatHere reports whether the seat whose token hashes to h plays a match in memory here.
	SeatHere(h [32]byte) bool
	// Running lists the matches in memory that have not ended.
	Running() []string
	// Resume replays and starts the running matches this node claims (Claim).
	Resume(ctx context.Context) error
	// Drop takes a match this node no longer owns out of memory, paused for good, its
	// seats' streams ended so that they rejoin through its next owner.
	Drop(id string)
	// MarkGone marks match id gone at once, without its lock (Drop follows).
	MarkGone(id string)
	// Sync waits until everything the arena has queued for the store is written.
	Sync()
}

// Config is a node's cluster: the store the nodes share, and this node.
type Config struct {
	Node  Node
	Store *store.DB
	Log   *slog.Logger
	Now   func() time.Time
	// Room is how many live matches a node takes before CreateMatch is placed elsewhere
	// (limits.Config.LiveMatches).
	Room int
	// Trust holds the cluster's key (store.ClusterKey), which signs each relayed call with
	// the caller it is for and this node's id (service/caller): a node trusts a relay as a
	// node's only with it; and the key of this node's own web gateway, whose HTTP clients
	// a relay vouches for in turn.
	Trust caller.Trust
}

// Cluster is this node's part in a cluster: its leases, their renewal and fencing, the
// takeover of orphaned matches, and the relays of calls to the nodes that own them.
type Cluster struct {
	cfg   Config
	store *store.DB
	log   *slog.Logger
	local Local
	peers *peers

	ctx    context.Context
	cancel context.CancelFunc
	loops  sync.WaitGroup // the renew, claim and fence loops
	drops  sync.WaitGroup // matches being dropped after their lease lapsed (lost)

	renewed atomic.Int64 // when the leases were last renewed (UnixNano)

	mu sync.Mutex // guards fenced
	// fenced: the node could not renew its leases in time and dropped these matches; nil
	// while it renews.
	fenced []string
}

// New makes this node one of the cluster's; Join then registers it.
func New(cfg Config, local Local) *Cluster {
	if cfg.Node.LeaseTTL == 0 {
		cfg.Node.LeaseTTL = DefaultLeaseTTL
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	c := &Cluster{cfg: cfg, store: cfg.Store, log: cfg.Log, local: local, peers: newPeers(cfg.Node.Creds)}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c
}

// Caller is who ctx's call is for (caller.Trust.Of): a relayed call's client, named by the
// node that relayed it (Who.Node), when the cluster's key signed the relay.
func (c *Cluster) Caller(ctx context.Context) caller.Who {
	method, _ := grpc.Method(ctx)
	return c.cfg.Trust.Of(ctx, method, c.now())
}

func (c *Cluster) now() time.Time { return c.cfg.Now() }

// Join registers the node, renews its leases and takes over what it owns or finds
// orphaned, then starts the loops that keep it so.
func (c *Cluster) Join(ctx context.Context) error {
	if err := c.renew(ctx); err != nil {
		return err
	}
	if err := c.local.Resume(ctx); err != nil {
		return err
	}
	c.loops.Add(3)
	ttl := c.cfg.Node.LeaseTTL
	go c.every(ttl/3, c.renewTick)
	go c.every(ttl/3, c.claimTick)
	go c.every(ttl/12, c.fenceTick)
	return nil
}

// Stop stops the loops; the node still owns its leases until Leave.
func (c *Cluster) Stop() {
	c.cancel()
	c.loops.Wait()
}

// Leave hands the node's matches back when it stops cleanly, after the arena has written
// everything they applied: the other nodes take them at their next heartbeat.
func (c *Cluster) Leave() {
	c.drops.Wait()
	if c.store != nil {
		c.leave()
	}
	c.peers.close()
}

// Claim lists the running matches this node should run now: those it holds the lease of
// and are not in memory (it dropped them, then renewed the lease before it lapsed), and every
// orphan it wins the lease of.
func (c *Cluster) Claim(ctx context.Context) ([]*store.Match, error) {
	n := c.cfg.Node
	now := c.now()
	held, err := c.store.Held(ctx, n.ID, now)
	if err != nil {
		return nil, err
	}
	var strays []string
	for _, id := range held {
		if !c.local.Holds(id) && !c.local.Creating(id) {
			strays = append(strays, id)
		}
	}
	orphans, err := c.store.Orphans(ctx, now)
	if err != nil {
		return nil, err
	}
	var out []*store.Match
	dropped := false
	for _, rec := range orphans {
		if c.local.Holds(rec.ID) {
			// Running here, but its lease lapsed unnoticed (the process stood still past the
			// fence): another node may have run it meanwhile. It goes, and a later pass takes
			// it from its log.
			c.local.Drop(rec.ID)
			dropped = true
			continue
		}
		won, err := c.store.Acquire(ctx, rec.ID, n.ID, now, n.LeaseTTL)
		if err != nil {
			return nil, err
		}
		if won {
			out = append(out, rec)
		}
	}
	for _, id := range strays {
		rec, err := c.store.Match(ctx, id)
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
		c.local.Sync()
	}
	return out, nil
}

// Lease takes the lease of a match this node is creating, before the match is stored, so
// that no other node's takeover finds it unowned.
func (c *Cluster) Lease(ctx context.Context, matchID string) error {
	n := c.cfg.Node
	won, err := c.store.Acquire(ctx, matchID, n.ID, c.now(), n.LeaseTTL)
	if err == nil && !won {
		err = errLeaseHeld // a random id already leased: never in practice
	}
	if err != nil {
		return fmt.Errorf("lease of new match %s: %w", matchID, err)
	}
	return nil
}

// renew records that the node is alive and extends its leases; on success it notes the
// time the leases now run from, which fencing counts from (fenceTick).
func (c *Cluster) renew(ctx context.Context) error {
	n := c.cfg.Node
	now := c.now()
	// A slow renewal still counts until the fence would stop the node's matches anyway.
	ctx, cancel := context.WithTimeout(ctx, fenceAfter(n.LeaseTTL))
	defer cancel()
	if _, err := c.store.Heartbeat(ctx, n.ID, n.Addr, now, n.LeaseTTL); err != nil {
		return err
	}
	c.renewed.Store(now.UnixNano())
	return nil
}

// The node's three loops run apart, so that a slow takeover (replaying many logs) never
// delays a renewal, and a renewal hung on a dead database never delays the fence.

// every calls f every d until the cluster stops (one of c.loops).
func (c *Cluster) every(d time.Duration, f func()) {
	defer c.loops.Done()
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}

// renewTick renews the node's leases, every LeaseTTL/3. It does nothing else: a renewal must
// never wait for the writer or a takeover.
func (c *Cluster) renewTick() {
	if err := c.renew(c.ctx); err != nil && c.ctx.Err() == nil {
		c.log.Error("node heartbeat", "node", c.cfg.Node.ID, "err", err)
	}
}

// claimTick takes over the orphaned matches, every LeaseTTL/3, and brings a fenced node back
// once it renews again.
func (c *Cluster) claimTick() {
	if c.Fenced() {
		// Cut off: it takes nothing until it renews again, and then first hands back
		// what it dropped.
		if c.now().Sub(time.Unix(0, c.renewed.Load())) < fenceAfter(c.cfg.Node.LeaseTTL) {
			if err := c.unfence(c.ctx); err != nil && c.ctx.Err() == nil {
				c.log.Error("node back from a fence", "node", c.cfg.Node.ID, "err", err)
			}
		}
		return
	}
	if err := c.local.Resume(c.ctx); err != nil && c.ctx.Err() == nil {
		c.log.Error("node takeover", "node", c.cfg.Node.ID, "err", err)
	}
}

// fenceAfter is how long after its last renewal a node that cannot renew stops its matches:
// two renewals missed, a third of a lease before any of them can expire, so that another
// node never runs a match this one still plays (clock skew between nodes must stay well
// under that third).
func fenceAfter(ttl time.Duration) time.Duration { return ttl * 2 / 3 }

// fenceTick fences the node once its last renewal is fenceAfter old; it runs every
// LeaseTTL/12.
func (c *Cluster) fenceTick() {
	if c.now().Sub(time.Unix(0, c.renewed.Load())) >= fenceAfter(c.cfg.Node.LeaseTTL) {
		c.fence()
	}
}

// fence stops a node cut off from the database: every running match it holds may soon be
// another node's, so each is dropped from memory (paused for good, its streams ended with
// Unavailable so that its bots rejoin through a node that can reach it), and no match starts
// here until the node renews again.
func (c *Cluster) fence() {
	c.mu.Lock()
	if c.fenced != nil {
		c.mu.Unlock()
		return
	}
	c.fenced = []string{} // from now on no match starts here (Fenced)
	c.mu.Unlock()
	ids := c.local.Running()
	c.mu.Lock()
	c.fenced = ids
	c.mu.Unlock()
	c.log.Error("node cannot renew its leases: its matches stop here and go to the other nodes",
		"node", c.cfg.Node.ID, "matches", len(ids), "last renewal", time.Unix(0, c.renewed.Load()))
	for _, id := range ids {
		c.local.Drop(id)
	}
}

// unfence brings a fenced node back after a renewal: what it applied before the fence is
// written (or refused by the lease check if the lease lapsed meanwhile), and the leases of
// the matches it dropped are handed back, for any node (this one too) to rebuild from
// their logs. Nothing happens if the node is not fenced.
func (c *Cluster) unfence(ctx context.Context) error {
	c.mu.Lock()
	ids := c.fenced
	c.mu.Unlock()
	if ids == nil {
		return nil
	}
	c.local.Sync()
	if err := c.store.ReleaseMatches(ctx, c.cfg.Node.ID, ids); err != nil {
		return err
	}
	c.mu.Lock()
	c.fenced = nil
	c.mu.Unlock()
	c.log.Info("node renews again; it handed back the matches it dropped", "node", c.cfg.Node.ID, "matches", len(ids))
	return nil
}

// Fenced reports whether the node is cut off from its leases: no match starts here.
func (c *Cluster) Fenced() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fenced != nil
}

func (c *Cluster) leave() {
	ctx, cancel := context.WithTimeout(context.Background(), c.cfg.Node.LeaseTTL)
	defer cancel()
	n, err := c.store.Leave(ctx, c.cfg.Node.ID)
	if err != nil {
		c.log.Error("node leaves: its leases expire by themselves", "node", c.cfg.Node.ID, "err", err)
		return
	}
	c.log.Info("node left the cluster; its matches go to the other nodes", "node", c.cfg.Node.ID, "matches", n)
}

// leasedLog is the writer's store on a node of a cluster: every step and result is written
// only while the node holds the match's lease for a third of a lease more, checked in the
// same transaction (fencing), so a node that lost a match never writes into its log after
// another node took it.
type leasedLog struct{ c *Cluster }

// Journal is the store the arena's journal writes to on this node: every write checked
// against the node's leases.
func (c *Cluster) Journal() journal.Store { return leasedLog{c} }

// until is how long a lease must still run for a write under it: a third of a lease, the
// margin the fence leaves too (fenceAfter), so no other node can take it before the commit.
func (l leasedLog) until() time.Time {
	return l.c.now().Add(l.c.cfg.Node.LeaseTTL - fenceAfter(l.c.cfg.Node.LeaseTTL))
}

func (l leasedLog) WriteBatch(ctx context.Context, b store.Batch) error {
	lost, err := l.c.store.WriteLeasedBatch(ctx, l.c.cfg.Node.ID, l.until(), b)
	if err == nil && len(lost) > 0 {
		l.c.lost(lost)
	}
	return err
}

// lost is told, on the writer's goroutine, of matches whose writes were refused because
// their lease lapsed: each is marked gone at once, before the writer goes on (nobody is
// then told of a result that was not stored), and dropped on a goroutine of its own, as
// the writer must not wait for a match's lock.
func (c *Cluster) lost(ids []string) {
	for _, id := range ids {
		if !c.local.Holds(id) {
			continue
		}
		c.local.MarkGone(id)
		c.log.Error("a match's lease lapsed before its writes: dropped here, its log goes on elsewhere", "node", c.cfg.Node.ID, "match", id)
		c.drops.Add(1)
		go func() {
			defer c.drops.Done()
			c.local.Drop(id)
		}()
	}
}
