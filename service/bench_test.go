package service

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/limits"
)

// loopback serves an arena on a real TCP port on 127.0.0.1, chosen at run time, until the
// test ends.
func loopback(tb testing.TB, cfg Config) (*Server, *grpc.ClientConn) {
	tb.Helper()
	srv, conn, stop := serve(tb, cfg)
	tb.Cleanup(stop)
	return srv, conn
}

// serve is loopback that leaves the stopping to the caller: stop closes the connection, the
// arena and the gRPC server.
// dial, if given, are the client connection's options besides its credentials.
func serve(tb testing.TB, cfg Config, dial ...grpc.DialOption) (srv *Server, conn *grpc.ClientConn, stop func()) {
	tb.Helper()
	if cfg.Limits == (limits.Config{}) { // benchmarks measure throughput, far past the limits
		cfg.Limits = limits.Config{LiveMatches: 1 << 30, CreatesPerMinute: 1 << 30, LivePerCaller: 1 << 30}
	}
	srv, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	gs := NewGRPCServer(srv, GRPCOptions{})
	go gs.Serve(lis)
	conn, err = grpc.NewClient(lis.Addr().String(), append(dial, grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		tb.Fatal(err)
	}
	return srv, conn, func() {
		conn.Close()
		srv.Close()
		gs.Stop()
	}
}

// BenchmarkDecisionRoundTrip is one decision answered over loopback gRPC: the server sends a
// decision (typed observation, typed legal list, text, and the events since the seat's last),
// the bot answers by index, the server applies it and sends the next decision. The bots join
// as the Go SDK's do by default, asking for everything quietly (no acknowledgements, the
// events riding on the decisions), as BenchmarkRawEcho's messages carry it, and decode it all
// with the SDK's codec, as its client does. Matches of two random seats are played one after
// another; creating them and joining their seats is done in batches with the timer stopped
// (arenaTrips), and each match's end is timed. (Stopped around each match, the timer cost
// two runtime.ReadMemStats a match, each stopping the world, and 15-25% of the figure.)
// Besides ns/decision (all the timed work over all decisions, match ends included), it reports
// gap-ns: from a bot's answer to the next decision reaching a bot, mid-match, the figure to
// set beside BenchmarkRawEcho's round trip. BenchmarkRoundTripRatio runs both in one process,
// in turns, for the ratio.
func BenchmarkDecisionRoundTrip(b *testing.B) { newArenaTrips(b, false).run(b) }

// BenchmarkRoundTripRatio sets the arena's round trip beside the echo's in one run: batches
// of BenchmarkDecisionRoundTrip's matches, each followed by as many round trips of
// BenchmarkRawEcho's, so that whatever else the machine runs weighs on both alike. It reports
// each one's ns and CPU-ns a round trip, their ratio over the whole run (ratio, cpu-ratio) and
// the median of the batches' ratios (ratio-median). b.N counts the arena's decisions.
func BenchmarkRoundTripRatio(b *testing.B) {
	cache := new(wire.ActionCache)
	defer runtime.KeepAlive(cache)
	tripRatio(b, newArenaTrips(b, false), newEchoTrips(b, recordedDecisions(b, 400, cache)))
}

// tripRatio sets arena's round trips beside echo's in one run: batches of arena's matches,
// each followed by as many of echo's round trips, so that whatever else the machine runs
// weighs on both alike. It reports each one's ns and CPU-ns a round trip, their ratio over
// the whole run (ratio, cpu-ratio) and the median of the batches' ratios (ratio-median). b.N
// counts the arena's decisions.
func tripRatio(b *testing.B, arena *arenaTrips, echo *echoTrips) {
	var arenaWall, arenaCPU, echoWall, echoCPU time.Duration
	var trips int64
	var ratios []float64
	b.ResetTimer()
	for arena.decisions.Load() < int64(b.N) {
		batch := arena.join()
		d0, t0, c0 := arena.decisions.Load(), time.Now(), cpuTime()
		rest := arena.play(batch, int64(b.N))
		wall, cpu, k := time.Since(t0), cpuTime()-c0, arena.decisions.Load()-d0
		arena.playUntimed(rest)
		t1, c1 := time.Now(), cpuTime()
		echo.run(b, int(k))
		ewall, ecpu := time.Since(t1), cpuTime()-c1
		arenaWall, arenaCPU, echoWall, echoCPU, trips = arenaWall+wall, arenaCPU+cpu, echoWall+ewall, echoCPU+ecpu, trips+k
		ratios = append(ratios, float64(wall)/float64(ewall))
	}
	b.StopTimer()
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(trips) }
	b.ReportMetric(per(arenaWall), "arena-ns")
	b.ReportMetric(per(arenaCPU), "arena-cpu-ns")
	b.ReportMetric(per(echoWall), "echo-ns")
	b.ReportMetric(per(echoCPU), "echo-cpu-ns")
	b.ReportMetric(float64(arenaWall)/float64(echoWall), "ratio")
	b.ReportMetric(float64(arenaCPU)/float64(echoCPU), "cpu-ratio")
	reportMedian(b, ratios)
	b.ReportMetric(0, "ns/op") // the figures above say it; wall over b.N mixes both
}

// reportMedian reports the median of the rounds' ratios of a benchmark that sets the arena
// beside a baseline in turns, as ratio-median.
func reportMedian(b *testing.B, ratios []float64) {
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "ratio-median")
}

// arenaTrips plays BenchmarkDecisionRoundTrip's matches: two random seats, each a Go SDK bot
// on one loopback connection, seeded by the match's number; or, with house set,
// BenchmarkSeatRoundTrip's, seat 1 a random bot the server plays in process.
type arenaTrips struct {
	tb     testing.TB
	srv    *Server
	conn   *grpc.ClientConn
	client orreryv1.ArenaServiceClient
	house  bool
	// replays, if set, is how many recorded games the server at conn replays (replayServer):
	// match k is seat 0 of game k mod replays, and there is no seat 1.
	replays int
	seed    uint64
	// decisions counts the decisions the bots were given, untimed those of playUntimed's
	// matches, gaps and gapNS the answers followed by another decision in the same match, and
	// the time from each answer to that decision.
	decisions, untimed, gaps, gapNS, answered, sizes, sized atomic.Int64
}

// arenaBatch is how many matches arenaTrips joins at a time.
const arenaBatch = 32

// joinedMatch is a match whose seats have joined and wait for start to play.
type joinedMatch struct {
	start chan struct{}
	done  sync.WaitGroup
}

func newArenaTrips(tb testing.TB, house bool) *arenaTrips {
	srv, conn := loopback(tb, Config{})
	return &arenaTrips{tb: tb, srv: srv, conn: conn, client: orreryv1.NewArenaServiceClient(conn), house: house}
}

// run is a round-trip benchmark of the matches: batches joined with the timer stopped, then
// played, each match's end timed; what the bots were given past b.N is played untimed.
func (a *arenaTrips) run(b *testing.B) {
	var cpu time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for a.decisions.Load() < int64(b.N) {
		b.StopTimer()
		batch := a.join()
		b.StartTimer()
		cpu0 := cpuTime()
		rest := a.play(batch, int64(b.N))
		cpu += cpuTime() - cpu0
		b.StopTimer()
		a.playUntimed(rest)
		b.StartTimer()
	}
	b.StopTimer()
	a.report(b, b.Elapsed(), cpu)
}

// join creates arenaBatch matches and joins their seats, each bot sent its first decision and
// waiting for its match's start.
func (a *arenaTrips) join() []*joinedMatch {
	const sampled = 16 // one decision in sampled is sized for decision-bytes
	batch := make([]*joinedMatch, arenaBatch)
	var joined sync.WaitGroup
	for k := range batch {
		jm := &joinedMatch{start: make(chan struct{})}
		batch[k] = jm
		n := a.seed
		a.seed++
		var seats []*orreryv1.SeatToken
		if a.replays > 0 {
			seats = []*orreryv1.SeatToken{{Token: strconv.FormatUint(n%uint64(a.replays), 10)}}
		} else {
			seats = benchMatch(a.tb, a.client, testGame, 2, n).GetSeats()
		}
		for i, s := range seats {
			r := random.New(n*7 + uint64(i))
			if a.house && i == 1 {
				a.playHouse(s.GetToken(), r, jm)
				continue
			}
			bot := bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer {
				<-jm.start
				if last := a.answered.Swap(0); last != 0 {
					a.gaps.Add(1)
					a.gapNS.Add(time.Now().UnixNano() - last)
				}
				if a.decisions.Add(1)%sampled == 0 { // sizing every decision cost the bot 4% of the CPU
					a.sizes.Add(int64(d.SizeVT()))
					a.sized.Add(1)
				}
				ans := r.Act(d)
				a.answered.Store(time.Now().UnixNano())
				return ans
			})
			jm.done.Add(1)
			joined.Add(1)
			go func() {
				defer jm.done.Done()
				if _, err := sdk.Play(context.Background(), a.conn, s.GetToken(), bot, sdk.Options{OnJoined: func(*orreryv1.Joined) { joined.Done() }}); err != nil {
					a.tb.Error(err)
				}
			}()
		}
	}
	joined.Wait()
	return batch
}

// playHouse plays the seat token names in process, with r, as the ladder's house bots play
// (Seat.Play), once jm starts.
func (a *arenaTrips) playHouse(token string, r bots.Bot, jm *joinedMatch) {
	house, err := a.srv.Attach(token, nil)
	if err != nil {
		a.tb.Fatal(err)
	}
	house.SetReceive(random.New(0).(bots.Receiver).Receive())
	jm.done.Add(1)
	go func() {
		defer jm.done.Done()
		defer house.Detach()
		err := house.Play(context.Background(), func(resp *orreryv1.PlayResponse) (*orreryv1.Answer, error) {
			d := resp.GetDecision()
			if d == nil {
				return nil, nil
			}
			<-jm.start
			return r.Act(d), nil
		})
		if err != nil {
			a.tb.Error(err)
		}
	}()
}

// play plays the matches one after another, to their ends, until the bots have been given
// until decisions (negative: all of them); it returns the matches left unplayed.
func (a *arenaTrips) play(batch []*joinedMatch, until int64) []*joinedMatch {
	for k, jm := range batch {
		if until >= 0 && a.decisions.Load() >= until {
			return batch[k:]
		}
		a.answered.Store(0) // the first decision of a match follows no answer of it
		close(jm.start)
		jm.done.Wait()
	}
	return nil
}

// playUntimed plays the matches of a batch left unplayed, their decisions not counted.
func (a *arenaTrips) playUntimed(rest []*joinedMatch) {
	d := a.decisions.Load()
	a.play(rest, -1)
	a.untimed.Add(a.decisions.Load() - d)
}

// report reports the timed decisions' wall and CPU time, the mean gap and the decisions' size.
func (a *arenaTrips) report(b *testing.B, wall, cpu time.Duration) {
	d := float64(a.decisions.Load() - a.untimed.Load())
	b.ReportMetric(float64(wall.Nanoseconds())/d, "ns/decision")
	b.ReportMetric(float64(cpu.Nanoseconds())/d, "cpu-ns/decision")
	b.ReportMetric(float64(a.gapNS.Load())/float64(max(a.gaps.Load(), 1)), "gap-ns")
	b.ReportMetric(float64(a.sizes.Load())/float64(max(a.sized.Load(), 1)), "decision-bytes")
}

// benchMatch creates a match of game with seats seats and seed, on a minute a move, so that no
// clock runs out however loaded the machine.
func benchMatch(tb testing.TB, client orreryv1.ArenaServiceClient, game string, seats int, seed uint64) *orreryv1.CreateMatchResponse {
	tb.Helper()
	created, err := client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: game, Seats: int32(seats), Seed: &seed,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute)}})
	if err != nil {
		tb.Fatal(err)
	}
	return created
}

// echoCodec passes bytes through untouched, so the echo measures gRPC alone.
type echoCodec struct{}

func (echoCodec) Marshal(v any) ([]byte, error) { return *(v.(*[]byte)), nil }
func (echoCodec) Unmarshal(data []byte, v any) error {
	*(v.(*[]byte)) = append((*(v.(*[]byte)))[:0], data...)
	return nil
}
func (echoCodec) Name() string { return "echo" }

// recordedDecisions are the decisions of seeded random 2-seat games of testGame, as the server
// sends them to a seat that asks for everything, quietly (the Go SDK's default): each carries
// the events its seat has not seen since its last decision, and its legal envelopes come from
// cache, so the server's codec copies them as encoded bytes, as it does the arena's, while
// the cache lives. The echo baselines replay exactly this mix of small and large messages.
// (The arena's seats are also sent, per match, the last events and the end, which the echo
// does not carry: its figure is the arena's mix without them.)
func recordedDecisions(tb testing.TB, games int, cache *wire.ActionCache) []*orreryv1.Decision {
	return recordedSeatDecisions(tb, games, cache, -1)
}

// recordedSeatDecisions is recordedDecisions of one seat only (seat < 0: every seat's).
func recordedSeatDecisions(tb testing.TB, games int, cache *wire.ActionCache, only engine.Seat) []*orreryv1.Decision {
	var out []*orreryv1.Decision
	var toAct []engine.Seat
	var legal []engine.Action
	var game []proto.Message
	for n := uint64(0); n < uint64(games); n++ {
		st, err := engine.New(testGame, engine.Config{Seats: 2, Seed: n})
		if err != nil {
			tb.Fatal(err)
		}
		// The seats' bots as BenchmarkDecisionRoundTrip seeds them: its first games are these.
		rs := []bots.Bot{random.New(n * 7), random.New(n*7 + 1)}
		seen := make([]int, 2) // each seat's events delivered so far
		for ply := int64(0); !st.Terminal(); ply++ {
			toAct = st.ToAct(toAct[:0])
			seat := toAct[0]
			legal = st.Legal(seat, legal[:0])
			d := wire.CachedDecision(st, seat, legal, ply, cache)
			d.DecisionId, d.MatchId = "d"+strconv.FormatInt(ply, 10)+".1", "mAbCdEfGhIjKl"
			d.Deadline, d.TimeBank = timestamppb.New(time.Now().Add(time.Minute)), durationpb.New(0)
			game = st.Events(seat, seen[seat], game[:0])
			for i, ev := range game {
				d.Events = append(d.Events, new(wire.EventParts).Game(int64(seen[seat]+i), ev))
			}
			seen[seat] = st.EventCount()
			if only < 0 || seat == only {
				out = append(out, d)
			}
			if err := st.Apply(seat, legal[rs[seat].Act(d).GetLegalIndex()]); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return out
}

// echoServer serves one bidirectional stream method that answers every request with reply.
func echoServer(tb testing.TB, opt grpc.ServerOption, handler func(grpc.ServerStream) error) (*grpc.ClientConn, *grpc.StreamDesc) {
	desc := grpc.ServiceDesc{
		ServiceName: "orrery.bench.Echo",
		HandlerType: (*any)(nil),
		Streams: []grpc.StreamDesc{{StreamName: "Echo", ServerStreams: true, ClientStreams: true,
			Handler: func(_ any, stream grpc.ServerStream) error { return handler(stream) }}},
	}
	gs := grpc.NewServer(opt)
	gs.RegisterService(&desc, struct{}{})
	return serveLoopback(tb, gs), &desc.Streams[0]
}

// serveLoopback serves gs on a loopback port chosen at run time, and returns a client
// connection to it; both are stopped when the test ends.
func serveLoopback(tb testing.TB, gs *grpc.Server) *grpc.ClientConn {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	go gs.Serve(lis)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close(); gs.Stop() })
	return conn
}

// BenchmarkRawEcho is the baseline for BenchmarkDecisionRoundTrip: a bare bidirectional gRPC
// stream over loopback, with the protocol's own messages and codecs (the server's and the Go
// SDK's) but no arena behind it.
// The client sends an Answer; the server replies at once with a ready-made Decision, cycling
// through the decisions of recorded games so that the mix of sizes is the arena's. One round
// trip per iteration.
func BenchmarkRawEcho(b *testing.B) {
	cache := new(wire.ActionCache) // kept to the end, as a match keeps its own
	defer runtime.KeepAlive(cache)
	echoDecisions(b, recordedDecisions(b, 400, cache))
}

// echoDecisions answers each Answer the client sends with the next of recorded, over a bare
// stream with the arena's codecs, and reports the round trip's CPU (cpu-ns/op, the same as
// cpu-ns/decision) and the mean message size.
func echoDecisions(b *testing.B, recorded []*orreryv1.Decision) {
	echo := newEchoTrips(b, recorded)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	echo.run(b, b.N)
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(echo.size, "msg-bytes")
}

// echoTrips is a client stream to a server that answers each Answer with the next of the
// recorded decisions, in turn, with the arena's codecs.
type echoTrips struct {
	cs   grpc.ClientStream
	ans  *orreryv1.PlayRequest
	size float64 // the decisions' mean encoded size
}

func newEchoTrips(tb testing.TB, recorded []*orreryv1.Decision) *echoTrips {
	replies := make([]*orreryv1.PlayResponse, len(recorded))
	total := 0
	for i, d := range recorded {
		replies[i] = &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Decision{Decision: d}}
		total += proto.Size(d)
	}
	conn, desc := echoServer(tb, grpc.ForceServerCodecV2(newCodec()), func(stream grpc.ServerStream) error {
		var req orreryv1.PlayRequest
		for i := 0; ; i++ {
			if err := stream.RecvMsg(&req); err != nil {
				return nil
			}
			if err := stream.SendMsg(replies[i%len(replies)]); err != nil {
				return err
			}
		}
	})
	cs, err := conn.NewStream(context.Background(), desc, "/orrery.bench.Echo/Echo", grpc.ForceCodecV2(wire.Codec{Trusted: true}))
	if err != nil {
		tb.Fatal(err)
	}
	ans := &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "d12", Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 3}}}}
	return &echoTrips{cs: cs, ans: ans, size: float64(total) / float64(len(recorded))}
}

// run makes n round trips.
func (e *echoTrips) run(tb testing.TB, n int) {
	for range n {
		if err := e.cs.SendMsg(e.ans); err != nil {
			tb.Fatal(err)
		}
		var in orreryv1.PlayResponse
		if err := e.cs.RecvMsg(&in); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkSeatRoundTrip is a single seat's decision round trip, as a bot playing the house
// bots knows it: seat 0 plays over loopback gRPC with the Go SDK's defaults (everything,
// quietly), seat 1 is a random bot the server plays in process (as the ladder's house bots
// are), so one op is from seat 0's answer to its next decision, the other seat's move and the
// events of both riding on it. "echo" replays exactly seat 0's decisions of the same seeded
// games over a bare stream with the same codecs: one round trip per op. Set arena's
// ns/decision and cpu-ns/decision beside echo's ns/op and cpu-ns/op; "ratio" runs the two in
// turns in one run (tripRatio), as BenchmarkRoundTripRatio does, for the ratio on a machine
// shared with others.
func BenchmarkSeatRoundTrip(b *testing.B) {
	b.Run("arena", func(b *testing.B) { newArenaTrips(b, true).run(b) })
	b.Run("echo", func(b *testing.B) {
		cache := new(wire.ActionCache)
		defer runtime.KeepAlive(cache)
		echoDecisions(b, recordedSeatDecisions(b, 400, cache, 0))
	})
	b.Run("ratio", func(b *testing.B) {
		cache := new(wire.ActionCache)
		defer runtime.KeepAlive(cache)
		tripRatio(b, newArenaTrips(b, true), newEchoTrips(b, recordedSeatDecisions(b, 400, cache, 0)))
	})
	// The floor under ratio: a server that does no work for a decision, replaying seat 0's
	// messages of the same games, joined, played and ended as the arena's (replayTrips).
	b.Run("floor", func(b *testing.B) {
		cache := new(wire.ActionCache)
		defer runtime.KeepAlive(cache)
		tripRatio(b, replayTrips(b, 400), newEchoTrips(b, recordedSeatDecisions(b, 400, cache, 0)))
	})
}

// BenchmarkRawEchoBytes is the floor: a decision of the recorded mix's average size as opaque
// bytes, no protobuf at all.
func BenchmarkRawEchoBytes(b *testing.B) {
	recorded := recordedDecisions(b, 400, nil)
	total := 0
	for _, d := range recorded {
		total += proto.Size(d)
	}
	msg := make([]byte, total/len(recorded))
	conn, desc := echoServer(b, grpc.ForceServerCodec(echoCodec{}), func(stream grpc.ServerStream) error {
		var buf []byte
		for {
			if err := stream.RecvMsg(&buf); err != nil {
				return nil
			}
			if err := stream.SendMsg(&msg); err != nil {
				return err
			}
		}
	})
	cs, err := conn.NewStream(context.Background(), desc, "/orrery.bench.Echo/Echo", grpc.ForceCodec(echoCodec{}))
	if err != nil {
		b.Fatal(err)
	}
	ans := []byte{0x12, 0x06, 0x0a, 0x02, 'd', '1', 0x10, 0x03}
	var in []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := cs.SendMsg(&ans); err != nil {
			b.Fatal(err)
		}
		if err := cs.RecvMsg(&in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(msg)), "msg-bytes")
}

// TestConcurrency_ThousandMatches runs 1,000 simultaneous matches of random bots in one
// server process and reports decisions per second; goleak (TestMain) checks nothing leaks.
func TestConcurrency_ThousandMatches(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100
	}
	_, conn := loopback(t, Config{})
	client := orreryv1.NewArenaServiceClient(conn)
	ctx := context.Background()
	created := make([]*orreryv1.CreateMatchResponse, n)
	for i := range created {
		created[i] = benchMatch(t, client, testGame, 4, uint64(i))
	}
	var decisions atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	errs := make(chan error, n*4)
	for i, c := range created {
		for j, s := range c.GetSeats() {
			r := random.New(uint64(i*4 + j))
			bot := bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer { decisions.Add(1); return r.Act(d) })
			wg.Add(1)
			go func() {
				defer wg.Done()
				end, err := sdk.Play(ctx, conn, s.GetToken(), bot, sdk.Options{})
				if err == nil && end.GetResult() == nil {
					err = fmt.Errorf("match %s ended without a result", c.GetMatchId())
				}
				if err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	elapsed := time.Since(start)
	t.Logf("%d simultaneous matches: %d decisions in %v = %.0f decisions/s (GOMAXPROCS=%d)",
		n, decisions.Load(), elapsed.Round(time.Millisecond), float64(decisions.Load())/elapsed.Seconds(), runtime.GOMAXPROCS(0))
}

// BenchmarkDecisionInProcess is the server's own cost per decision, without the network:
// two seats played through Seat.Play by bots that answer at once (as the ladder's house bots
// play). Set beside BenchmarkDecisionRoundTrip, it splits the round trip
// into the arena's work and gRPC's. Matches are created in batches with the timer stopped
// (their CPU not counted either): a 2-seat match of testGame is about nine decisions, so
// creating one (seeding, hashing tokens) was a tenth of the figure, and it is no decision's
// cost. Joining, playing and ending each match are timed.
func BenchmarkDecisionInProcess(b *testing.B) {
	srv, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	var decisions atomic.Int64
	var cpu time.Duration
	const batch = 32
	var seed uint64
	b.ReportAllocs()
	b.ResetTimer()
	for decisions.Load() < int64(b.N) {
		b.StopTimer()
		created := make([][]string, batch)
		first := seed
		for i := range created {
			n := seed
			seed++
			_, tokens, _, err := srv.Create(ctx, MatchSpec{Game: testGame, Seats: 2, Seed: &n,
				Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute)}})
			if err != nil {
				b.Fatal(err)
			}
			created[i] = tokens
		}
		b.StartTimer()
		cpu0 := cpuTime()
		for k, tokens := range created {
			n := first + uint64(k)
			if decisions.Load() >= int64(b.N) {
				break // the rest of the batch is left unplayed
			}
			var wg sync.WaitGroup
			for i, tok := range tokens {
				seat, err := srv.Attach(tok, nil)
				if err != nil {
					b.Fatal(err)
				}
				r := random.New(n*7 + uint64(i))
				reply := func(resp *orreryv1.PlayResponse) (*orreryv1.Answer, error) {
					d := resp.GetDecision()
					if d == nil {
						return nil, nil
					}
					decisions.Add(1)
					return r.Act(d), nil
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer seat.Detach()
					if err := seat.Play(ctx, reply); err != nil { // as the ladder's PlayInProcess does
						b.Error(err)
					}
				}()
			}
			wg.Wait()
		}
		cpu += cpuTime() - cpu0
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions.Load()), "ns/decision")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(decisions.Load()), "cpu-ns/decision")
}
