package service

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/cluster"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/store/pgtest"
)

// dbLink is a TCP relay between a node and PostgreSQL that the test can cut, as a network
// partition would, and mend.
type dbLink struct {
	t    *testing.T
	addr string // where the node connects
	pg   string // PostgreSQL's address

	mu    sync.Mutex // guards lis and conns
	lis   net.Listener
	conns []net.Conn
	wg    sync.WaitGroup
}

// newDBLink relays target's database through a local port; it returns the link and the
// target that goes through it.
func newDBLink(t *testing.T, target string) (*dbLink, string) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	l := &dbLink{t: t, pg: u.Host}
	l.listen("127.0.0.1:0")
	u.Host = l.addr
	t.Cleanup(func() { l.cut(); l.wg.Wait() })
	return l, u.String()
}

func (l *dbLink) listen(addr string) {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		l.t.Fatal(err)
	}
	l.mu.Lock()
	l.lis, l.addr = lis, lis.Addr().String()
	l.mu.Unlock()
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", l.pg)
			if err != nil {
				c.Close()
				continue
			}
			l.mu.Lock()
			l.conns = append(l.conns, c, up)
			l.mu.Unlock()
			l.wg.Add(2)
			go func() { defer l.wg.Done(); io.Copy(up, c); up.Close() }()
			go func() { defer l.wg.Done(); io.Copy(c, up); c.Close() }()
		}
	}()
}

// cut drops every connection and refuses new ones.
func (l *dbLink) cut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lis != nil {
		l.lis.Close()
		l.lis = nil
	}
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
}

// mend accepts connections again, on the same address.
func (l *dbLink) mend() { l.listen(l.addr) }

// A node cut off from the database stops its matches before its leases can expire: its
// seats' streams end with Unavailable while the lease is still its own (so no other node
// can be running the match yet), and it starts nothing new. The other node takes the match
// once the lease expires, the same tokens finish it there, and the log written by the two
// nodes replays to the same end. Mended, the cut-off node renews again and hands back what
// it dropped.
func TestFence_NodeCutOffFromTheDatabaseStopsBeforeItsLeaseExpires(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	link, viaLink := newDBLink(t, target)
	const ttl = cluster.DefaultLeaseTTL // the fence comes 3 s before the lease could expire: room for a loaded machine
	cut := newNode(t, viaLink, "cut", Config{Node: &Node{LeaseTTL: ttl}}, GRPCOptions{})
	other := newNode(t, target, "other", Config{Node: &Node{LeaseTTL: ttl}}, GRPCOptions{})
	ctx := context.Background()
	created := cut.create(&orreryv1.CreateMatchRequest{Seed: seed(31)})
	id := created.GetMatchId()
	_, stream, d := seatToAct(t, cut.harness, ctx, created)
	if resp := answer(t, stream, bots0(d)); resp.GetAccepted() == nil {
		t.Fatal(resp)
	}
	cut.srv.Sync()

	link.cut()
	var err error
	for err == nil {
		_, err = stream.Recv()
	}
	l, lerr := other.db.Owner(ctx, id)
	if lerr != nil || l.Node.ID != "cut" || !l.Expires.After(time.Now()) {
		t.Errorf("when the cut-off node stopped the match, its lease was %+v (%v); want still its own", l, lerr)
	}
	if status.Code(err) != codes.Unavailable {
		t.Errorf("the seat's stream on the cut-off node ended with %v; want Unavailable", err)
	}
	if cut.srv.reg.lookup(id) != nil {
		t.Error("the cut-off node keeps the match in memory")
	}
	if _, err := cut.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats}); status.Code(err) != codes.Unavailable {
		t.Errorf("CreateMatch on the cut-off node: %v; want Unavailable", err)
	}

	waitFor(t, "the other node takes the match over", func() bool { return other.srv.reg.lookup(id) != nil })
	ends := other.playRandom(ctx, created, nil)
	if ends[0].GetSeed() != 31 {
		t.Errorf("the match ended on the other node with %v", ends[0])
	}
	other.srv.Sync()

	link.mend()
	waitFor(t, "the mended node renews", func() bool { return !cut.srv.cluster.Fenced() })
	if _, err := cut.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats}); err != nil {
		t.Errorf("CreateMatch on the mended node: %v", err)
	}
	live, err := other.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := LoadReplay(ctx, other.db, id)
	if err != nil || len(stored.GetSteps()) != len(live.GetSteps()) || stored.GetFinalText() != live.GetFinalText() {
		t.Fatalf("the stored log does not replay to the served end: %d steps (%v), served %d", len(stored.GetSteps()), err, len(live.GetSteps()))
	}
}

// A node whose lease lapsed writes nothing more into the match's log: its queued steps and
// its result are refused by the lease check in their own transaction, and the match leaves
// its memory, while another node's writes go on.
func TestFence_WritesAfterTheLeaseLapsedAreRefused(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	const ttl = time.Hour // no takeover by the clock in this test: the test moves the lease
	lapsed := newNode(t, target, "lapsed", Config{Node: &Node{LeaseTTL: ttl}}, GRPCOptions{})
	ctx := context.Background()
	created := lapsed.create(&orreryv1.CreateMatchRequest{Seed: seed(32)})
	id := created.GetMatchId()
	_, stream, d := seatToAct(t, lapsed.harness, ctx, created)
	lapsed.srv.Sync()

	// Another node owns the match now (as after a takeover the lapsed node slept through).
	if _, err := lapsed.db.SQL().ExecContext(ctx, `DELETE FROM leases WHERE match_id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if won, err := lapsed.db.Acquire(ctx, id, "thief", time.Now(), ttl); err != nil || !won {
		t.Fatal(won, err)
	}
	// The answer is applied, its step refused by the store: the seat may read the acceptance,
	// or the stream may end first, when the refusal drops the match before the reply is sent.
	if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: bots0(d)}}); err != nil {
		t.Fatal(err)
	}
	var err error
	for err == nil {
		var resp *orreryv1.PlayResponse
		if resp, err = stream.Recv(); resp.GetAccepted() != nil {
			break
		} else if resp.GetRejected() != nil {
			t.Fatal(resp)
		}
	}
	if err != nil && status.Code(err) != codes.Unavailable {
		t.Fatalf("after the answer: %v; want its acceptance or Unavailable", err)
	}
	lapsed.srv.Sync()
	steps, err := lapsed.db.Steps(ctx, id)
	if err != nil || len(steps) != 0 {
		t.Errorf("the log holds %d steps (%v) after the lease moved; want none", len(steps), err)
	}
	waitFor(t, "the lapsed node drops the match", func() bool { return lapsed.srv.reg.lookup(id) == nil })
	for err = nil; err == nil; {
		_, err = stream.Recv()
	}
	if status.Code(err) != codes.Unavailable {
		t.Errorf("the seat's stream ended with %v; want Unavailable", err)
	}
	if l, err := lapsed.db.Owner(ctx, id); err != nil || l.Node.ID != "thief" {
		t.Errorf("lease after the refused writes: %+v, %v; want the thief's", l, err)
	}
}

// Closing a node hands its matches back at once: its leases are gone and it is no longer a
// live node, so another node takes its matches at its next heartbeat (well before a lease's
// length), and their seats finish them there.
func TestShutdown_ClosingANodeHandsItsMatchesBack(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	const ttl = time.Hour // only a release lets the other node take the match
	leaving := newNode(t, target, "leaving", Config{Node: &Node{LeaseTTL: ttl}}, GRPCOptions{})
	staying := newNode(t, target, "staying", Config{Node: &Node{LeaseTTL: 3 * time.Second}}, GRPCOptions{})
	ctx := context.Background()
	created := leaving.create(&orreryv1.CreateMatchRequest{Seed: seed(33)})
	id := created.GetMatchId()
	_, stream, d := seatToAct(t, leaving.harness, ctx, created)
	if resp := answer(t, stream, bots0(d)); resp.GetAccepted() == nil {
		t.Fatal(resp)
	}

	leaving.srv.Close()
	var err error
	for err == nil {
		_, err = stream.Recv()
	}
	if status.Code(err) != codes.Unavailable {
		t.Errorf("the seat's stream ended with %v at shutdown; want Unavailable", err)
	}
	if _, err := staying.db.Owner(ctx, id); err != nil && !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	} else if err == nil {
		if l, _ := staying.db.Owner(ctx, id); l.Node.ID == "leaving" {
			t.Errorf("the closed node kept its lease: %+v", l)
		}
	}
	nodes, err := staying.db.Live(ctx, time.Now().Add(-ttl), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if n.ID == "leaving" {
			t.Error("the closed node is still listed as live")
		}
	}
	waitFor(t, "the staying node takes the match", func() bool { return staying.srv.reg.lookup(id) != nil })
	got, err := staying.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
	if err != nil || got.GetMatch().GetPly() != 1 {
		t.Fatalf("on the staying node: %v, %v; want the match at ply 1", got, err)
	}
	if ends := staying.playRandom(ctx, created, nil); ends[0].GetSeed() != 33 {
		t.Errorf("the match ended with %v", ends[0])
	}
}
