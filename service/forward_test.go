package service

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/caller"
	"github.com/orrery/orrery/service/cluster"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/store/pgtest"
)

// node is one in-process node of a cluster, served on a loopback port (its peers dial it
// there) and reached by the test through its own client.
type node struct {
	*harness
	id   string
	gs   *grpc.Server
	db   *store.DB
	addr string
}

// newNode starts node id on the PostgreSQL database target.
func newNode(t *testing.T, target, id string, cfg Config, o GRPCOptions) *node {
	t.Helper()
	db, err := store.Open(target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store = db
	if cfg.Node == nil {
		cfg.Node = &Node{LeaseTTL: 3 * time.Second}
	}
	cfg.Node.ID, cfg.Node.Addr = id, lis.Addr().String()
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	gs := NewGRPCServer(srv, o)
	go gs.Serve(lis)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		srv.Close()
		gs.Stop()
	})
	h := &harness{t: t, srv: srv, client: orreryv1.NewArenaServiceClient(conn), conn: conn}
	return &node{harness: h, id: id, gs: gs, db: db, addr: lis.Addr().String()}
}

// calls records the metadata each call arrives with at a node.
type calls struct {
	mu sync.Mutex // guards md
	md map[string][]metadata.MD
}

func (c *calls) authorize(ctx context.Context, method string) (context.Context, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.md[method] = append(c.md[method], md)
	return ctx, nil
}

func (c *calls) of(method string) []metadata.MD {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.md[method]
}

// A match lives on the node that created it; every call about it made to another node is
// relayed there: GetMatch shows the live position, Watch follows it, and the seats play
// the whole match through the other node, their metadata arriving at the owner unchanged
// and marked as relayed.
func TestForward_AnyNodeServesTheMatchOfAnother(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	seen := &calls{md: map[string][]metadata.MD{}}
	owner := newNode(t, target, "owner", Config{}, GRPCOptions{Authorize: seen.authorize})
	other := newNode(t, target, "other", Config{}, GRPCOptions{})
	ctx := metadata.AppendToOutgoingContext(context.Background(), "x-api-key", "k-123")

	created := owner.create(&orreryv1.CreateMatchRequest{Seed: seed(21)})
	id := created.GetMatchId()
	if other.srv.reg.lookup(id) != nil {
		t.Fatal("the other node holds the match too")
	}
	_, stream, d := seatToAct(t, owner.harness, ctx, created)
	if resp := answer(t, stream, bots0(d)); resp.GetAccepted() == nil {
		t.Fatal(resp)
	}
	got, err := other.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
	if err != nil || got.GetMatch().GetPly() != 1 || got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
		t.Fatalf("GetMatch through the other node = %v, %v; want running at ply 1", got, err)
	}
	watch, err := other.client.Watch(ctx, &orreryv1.WatchRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	if first, err := watch.Recv(); err != nil || first.GetView() == nil {
		t.Fatalf("Watch through the other node: %v, %v; want a view", first, err)
	}
	stream.CloseSend()

	ends := other.playRandom(metadata.AppendToOutgoingContext(ctx), created, nil)
	for i, e := range ends {
		if e == nil || e.GetSeed() != 21 {
			t.Errorf("seat %d through the other node ended with %v; want the end with seed 21", i, e)
		}
	}
	var ended *orreryv1.MatchEnded
	for ended == nil {
		resp, err := watch.Recv()
		if err != nil {
			t.Fatalf("Watch through the other node before the end: %v", err)
		}
		ended = resp.GetEnded()
	}
	if ended.GetSeed() != 21 {
		t.Errorf("the relayed Watch ended with %v", ended)
	}
	relayedPlays := 0
	for _, md := range seen.of(orreryv1.ArenaService_Play_FullMethodName) {
		if len(md.Get(cluster.ForwardedBy)) == 0 {
			continue
		}
		relayedPlays++
		if by := md.Get(cluster.ForwardedBy); by[0] != "other" {
			t.Errorf("relayed Play marked as from %v, want other", by)
		}
		if k := md.Get("x-api-key"); len(k) != 1 || k[0] != "k-123" {
			t.Errorf("relayed Play lost the caller's metadata: x-api-key %v", k)
		}
	}
	if relayedPlays < testSeats {
		t.Errorf("%d Play streams relayed to the owner, want at least %d", relayedPlays, testSeats)
	}
}

// The owner's refusals reach the caller through the relay with their own codes, and a relay
// whose owner goes away mid-stream ends with Unavailable, which clients retry.
func TestForward_KeepsTheOwnersCodesAndLosingItIsUnavailable(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	owner := newNode(t, target, "owner", Config{}, GRPCOptions{})
	other := newNode(t, target, "other", Config{}, GRPCOptions{})
	ctx := context.Background()
	created := owner.create(&orreryv1.CreateMatchRequest{Seed: seed(22)})
	id := created.GetMatchId()

	negative := int64(-1)
	for _, c := range []struct {
		name string
		call func() error
		want codes.Code
	}{
		{"Watch from a negative event", func() error {
			w, err := other.client.Watch(ctx, &orreryv1.WatchRequest{MatchId: id, FromEvent: -1})
			if err == nil {
				_, err = w.Recv()
			}
			return err
		}, codes.InvalidArgument},
		{"join with negative events seen", func() error {
			p, err := other.client.Play(ctx)
			if err == nil {
				err = p.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{
					Token: created.GetSeats()[0].GetToken(), EventsSeen: &negative}}})
			}
			if err == nil {
				_, err = p.Recv()
			}
			return err
		}, codes.InvalidArgument},
		{"GetReplay of the running match", func() error {
			_, err := other.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
			return err
		}, codes.FailedPrecondition},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); status.Code(err) != c.want {
				t.Errorf("got %v, want %v", err, c.want)
			}
		})
	}

	w, err := other.client.Watch(ctx, &orreryv1.WatchRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Recv(); err != nil {
		t.Fatal(err)
	}
	owner.gs.Stop() // the owner's process goes away: its connections drop
	for {
		_, err := w.Recv()
		if err != nil {
			if status.Code(err) != codes.Unavailable {
				t.Errorf("the relayed Watch ended with %v when the owner went away; want Unavailable", err)
			}
			lostOwnerSaysWhoAndRetry(t, "the relayed Watch", err)
			break
		}
	}
	// Until its lease lapses the dead owner is still the match's: a rejoin through the other
	// node is told which node it cannot reach, and to retry, not grpc-go's dial error alone.
	p, err := other.client.Play(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Send(join(created.GetSeats()[0].GetToken(), nil)); err != nil {
		t.Fatal(err)
	}
	_, err = p.Recv()
	if status.Code(err) != codes.Unavailable {
		t.Errorf("a rejoin through the other node while the owner is dead: %v, want Unavailable", err)
	}
	lostOwnerSaysWhoAndRetry(t, "a rejoin", err)
}

// lostOwnerSaysWhoAndRetry checks the status of a relay whose owner ("owner") is gone.
func lostOwnerSaysWhoAndRetry(t *testing.T, what string, err error) {
	t.Helper()
	msg := status.Convert(err).Message()
	for _, want := range []string{"node owner (", "which runs this match, cannot be reached", "retry"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%s ended with %q: it does not say %q", what, msg, want)
		}
	}
}

// A node that runs its limit of matches places a new one on the least loaded live node.
func TestForward_CreateGoesToANodeWithRoom(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	full := newNode(t, target, "full", Config{Limits: limits.Config{LiveMatches: 1}}, GRPCOptions{})
	roomy := newNode(t, target, "roomy", Config{Limits: limits.Config{LiveMatches: 1}}, GRPCOptions{})
	ctx := context.Background()
	first := full.create(&orreryv1.CreateMatchRequest{Seed: seed(1)})
	if full.srv.reg.lookup(first.GetMatchId()) == nil {
		t.Fatal("a node with room did not keep its own match")
	}
	second := full.create(&orreryv1.CreateMatchRequest{Seed: seed(2)})
	if roomy.srv.reg.lookup(second.GetMatchId()) == nil {
		t.Fatal("the full node did not place the match on the node with room")
	}
	if l, err := full.db.Owner(ctx, second.GetMatchId()); err != nil || l.Node.ID != "roomy" {
		t.Errorf("lease of the placed match: %+v, %v; want roomy's", l, err)
	}
	// Every node full: the one asked says so.
	_, err := full.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats})
	if status.Code(err) != codes.ResourceExhausted {
		t.Errorf("create with every node full: %v, want ResourceExhausted", err)
	}
}

// A node lists a match another node runs as its owner shows it: running, at the position
// the owner holds in memory (the store has only its start).
func TestForward_ListingShowsTheOwnersPosition(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	owner := newNode(t, target, "owner", Config{}, GRPCOptions{})
	other := newNode(t, target, "other", Config{}, GRPCOptions{})
	ctx := context.Background()
	created := owner.create(&orreryv1.CreateMatchRequest{Seed: seed(22)})
	_, stream, d := seatToAct(t, owner.harness, ctx, created)
	if resp := answer(t, stream, bots0(d)); resp.GetAccepted() == nil {
		t.Fatal(resp)
	}
	owner.srv.Sync()
	for _, status := range []orreryv1.MatchStatus{orreryv1.MatchStatus_MATCH_STATUS_UNSPECIFIED, orreryv1.MatchStatus_MATCH_STATUS_RUNNING} {
		list, err := other.client.ListMatches(ctx, &orreryv1.ListMatchesRequest{Status: status})
		if err != nil || len(list.GetMatches()) != 1 {
			t.Fatalf("ListMatches(%v) on the other node = %v, %v; want the match", status, list, err)
		}
		if got := list.GetMatches()[0]; got.GetPly() != 1 || got.GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
			t.Errorf("ListMatches(%v) on the other node shows the match at ply %d, %v; want running at ply 1", status, got.GetPly(), got.GetStatus())
		}
	}
}

// A create a node relays was counted there, against its caller: the node that takes it does
// not count it again against the relaying node, which would refuse every caller's matches
// once the relays alone reached the limit.
func TestForward_RelayedCreatesCountOnceAgainstTheirCaller(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	// A node judges another's room by its own limit, so both run up to 4.
	full := newNode(t, target, "full", Config{Limits: limits.Config{LiveMatches: 4, CreatesPerMinute: 7}}, GRPCOptions{})
	roomy := newNode(t, target, "roomy", Config{Limits: limits.Config{LiveMatches: 4, CreatesPerMinute: 2}}, GRPCOptions{})
	for i := range 4 { // kept: full is now full
		full.create(&orreryv1.CreateMatchRequest{Seed: seed(uint64(1 + i))})
	}
	for i := range 3 { // over roomy's own limit of 2
		placed := full.create(&orreryv1.CreateMatchRequest{Seed: seed(uint64(5 + i))})
		if roomy.srv.reg.lookup(placed.GetMatchId()) == nil {
			t.Fatalf("relayed create %d not placed on the node with room", i+1)
		}
	}
	// The caller's eighth create in the minute passes the limit where it called.
	_, err := full.client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats})
	if status.Code(err) != codes.ResourceExhausted {
		t.Errorf("eighth create in a minute: %v; want ResourceExhausted from the node called", err)
	}
}

// The reproduction: a relayed call was trusted by the caller's IP, so any client on a
// node's host (every client of a cluster on one host) that set the relay mark skipped the
// create limit. Now a relay is a node's only when signed with the cluster's key: on a
// three-node cluster on loopback, a plain client that forges the mark, or a vouch of its own
// signing, is counted as itself on whichever node it calls, while a real relay still counts
// once, where it was made.
func TestForward_ForgedRelayHeaderCountsAsTheClient(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	// a is full after one match, and relays; b and c allow one caller 2 creates a minute.
	a := newNode(t, target, "a", Config{Limits: limits.Config{LiveMatches: 1, CreatesPerMinute: 5}}, GRPCOptions{})
	b := newNode(t, target, "b", Config{Limits: limits.Config{LiveMatches: 20, CreatesPerMinute: 2}}, GRPCOptions{})
	c := newNode(t, target, "c", Config{Limits: limits.Config{LiveMatches: 20, CreatesPerMinute: 2}}, GRPCOptions{})
	a.create(&orreryv1.CreateMatchRequest{Seed: seed(1)})
	for i, want := range []*node{b, c} { // least loaded first
		placed := a.create(&orreryv1.CreateMatchRequest{Seed: seed(uint64(2 + i))})
		if want.srv.reg.lookup(placed.GetMatchId()) == nil {
			t.Fatalf("relayed create %d not placed on %s", i+1, want.id)
		}
	}
	// The same client, straight to b and c with a forged mark and a vouch of its own
	// signing: its own 2 creates on each (the relays above were counted at a, not here).
	req := &orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats}
	forged := caller.NewKey().Vouch(metadata.AppendToOutgoingContext(context.Background(), cluster.ForwardedBy, "a"),
		orreryv1.ArenaService_CreateMatch_FullMethodName, "198.51.100.1", "a", time.Now())
	for _, n := range []*node{b, c} {
		for i := range 3 {
			_, err := n.client.CreateMatch(forged, req)
			if want := i < 2; (err == nil) != want {
				t.Errorf("forged relay %d to %s: %v; want ok %v (the client's own limit of 2)", i+1, n.id, err, want)
			}
		}
	}
}
