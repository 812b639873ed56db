package service

import (
	"context"
	"runtime"
	"strconv"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// BenchmarkThousandFloor is the floor under BenchmarkThousandRatio: what gRPC and the Go SDK
// alone cost for the arena's play. In turns in each round it plays the arena's 1,000 matches
// (as BenchmarkThousandMatches, unstored), the plain echo of BenchmarkRawEcho1000Streams, and
// a replay: a server that does no work for a decision (replayServer) replaying, message for
// message, what the arena sent each of the 4,000 seats of such a round, to the same bots (the
// Go SDK, random, seeded alike), every stream opened, joined, played, ended and closed in
// the time measured, as the arena's are. A server that did nothing at all for a decision
// would run at the replay's rate: floor (the replay over the plain echo) bounds
// BenchmarkThousandRatio's ratio on this machine and transport, and of-floor (the arena over
// the replay) is how near the arena comes to it. b.N is the rounds of each.
func BenchmarkThousandFloor(b *testing.B) {
	const matches = 1000
	echoConn, desc := echoBytes(b)
	tokens, replayConn := replayMatches(b, matches)
	var decisions, trips, replayed int64
	var arenaWall, arenaCPU, echoWall, echoCPU, replayWall, replayCPU time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range 3 {
			b.StopTimer()
			runtime.GC() // each starts from a collected heap, whatever the other left
			b.StartTimer()
			switch (i + k) % 3 {
			case 0:
				b.StopTimer()
				conn, stop := serveRound(b, false)
				b.StartTimer()
				p := playConcurrently(b, conn, matches, uint64(i)*matches)
				b.StopTimer()
				stop()
				b.StartTimer()
				decisions, arenaWall, arenaCPU = decisions+p.decisions, arenaWall+p.elapsed, arenaCPU+p.cpu
			case 1:
				t, e, c := echoThousand(b, echoConn, desc)
				trips, echoWall, echoCPU = trips+t, echoWall+e, echoCPU+c
			case 2:
				p := playSeats(b, replayConn, tokens, 0, nil)
				replayed, replayWall, replayCPU = replayed+p.decisions, replayWall+p.elapsed, replayCPU+p.cpu
			}
		}
	}
	b.StopTimer()
	rate := func(n int64, d time.Duration) float64 { return float64(n) / d.Seconds() }
	arena, echo, replay := rate(decisions, arenaWall), rate(trips, echoWall), rate(replayed, replayWall)
	b.ReportMetric(arena, "decisions/s")
	b.ReportMetric(echo, "roundtrips/s")
	b.ReportMetric(replay, "replay-decisions/s")
	b.ReportMetric(arena/echo, "ratio")
	b.ReportMetric(replay/echo, "floor")
	b.ReportMetric(arena/replay, "of-floor")
	b.ReportMetric(rate(decisions, arenaCPU)/rate(trips, echoCPU), "cpu-ratio")
	b.ReportMetric(rate(replayed, replayCPU)/rate(trips, echoCPU), "cpu-floor")
	b.ReportMetric(0, "ns/op") // the rounds' servers and streams are made in it, untimed in the rates
}

// replayMatches records what the arena sends every seat of matches BenchmarkThousandMatches
// matches (their first round's seeds), and serves it from a replayServer: tokens are the
// seats to join on conn, four to a match, as playSeats plays them.
func replayMatches(tb testing.TB, matches int) (tokens [][]string, conn *grpc.ClientConn) {
	recorded := make([][]*orreryv1.PlayResponse, 4*matches)
	_, recordConn, stop := serve(tb, Config{}, grpc.WithStreamInterceptor(record))
	p := playConcurrentlyIn(tb, recordConn, matches, 0, func(match, seat int) context.Context {
		return context.WithValue(context.Background(), recording{}, &recorded[4*match+seat])
	})
	stop()
	if p.decisions == 0 {
		tb.Fatal("nothing recorded")
	}
	tokens = make([][]string, matches)
	for i := range tokens {
		for j := range 4 {
			tokens[i] = append(tokens[i], strconv.Itoa(4*i+j))
		}
	}
	return tokens, replaying(tb, recorded)
}

// replaying serves played from a replayServer on loopback until the test ends.
func replaying(tb testing.TB, played [][]*orreryv1.PlayResponse) *grpc.ClientConn {
	gs := grpc.NewServer(grpc.ForceServerCodecV2(newCodec()))
	orreryv1.RegisterArenaServiceServer(gs, &replayServer{played: played})
	return serveLoopback(tb, gs)
}

// replayTrips is arenaTrips of BenchmarkSeatRoundTrip's matches against a server that does
// no work for a decision: it replays, message for message, what the arena sent seat 0 in the
// first games of them (recordedSeatPlay), the next messages as each answer arrives, over the
// arena's codec. The bot, its joining (untimed), its play and its match's end (timed) are
// arenaTrips' own: set beside the echo of the same decisions (tripRatio), it is the floor of
// BenchmarkSeatRoundTrip's ratio, what a match's joining, end and events cost gRPC and the
// Go SDK alone.
func replayTrips(tb testing.TB, games int) *arenaTrips {
	return &arenaTrips{tb: tb, conn: replaying(tb, recordedSeatPlay(tb, games)), replays: games}
}

// replayServer replays recorded Play streams: a join's token is the number of the one to
// replay; it sends everything up to the first decision, then, on each answer, everything up
// to the next decision, or to the end.
type replayServer struct {
	orreryv1.UnimplementedArenaServiceServer
	played [][]*orreryv1.PlayResponse
}

func (r *replayServer) Play(stream PlayStream) error {
	req, err := stream.Recv()
	if err != nil {
		return nil
	}
	k, err := strconv.Atoi(req.GetJoin().GetToken())
	if err != nil || k < 0 || k >= len(r.played) {
		return status.Errorf(codes.InvalidArgument, "no recorded stream %q", req.GetJoin().GetToken())
	}
	msgs := r.played[k]
	for i, m := range msgs {
		if err := stream.Send(m); err != nil {
			return err
		}
		if m.GetDecision() != nil && i < len(msgs)-1 {
			if _, err := stream.Recv(); err != nil {
				return nil
			}
		}
	}
	return nil
}

// recordedSeatPlay is every message BenchmarkSeatRoundTrip's arena sends seat 0 in its
// first games matches (seeded and played as arenaTrips plays them), as the bot receives them.
func recordedSeatPlay(tb testing.TB, games int) [][]*orreryv1.PlayResponse {
	srv, conn, stop := serve(tb, Config{}, grpc.WithStreamInterceptor(record))
	defer stop()
	a := &arenaTrips{tb: tb, srv: srv, conn: conn, client: orreryv1.NewArenaServiceClient(conn), house: true}
	played := make([][]*orreryv1.PlayResponse, games)
	for n := range played {
		created := benchMatch(tb, a.client, testGame, 2, uint64(n))
		jm := &joinedMatch{start: make(chan struct{})}
		close(jm.start)
		a.playHouse(created.GetSeats()[1].GetToken(), random.New(uint64(n)*7+1), jm)
		ctx := context.WithValue(context.Background(), recording{}, &played[n])
		r := random.New(uint64(n) * 7)
		bot := bots.Func(r.Act) // asking for everything, as arenaTrips' seat 0 does (random asks for its count alone)
		if _, err := sdk.Play(ctx, conn, created.GetSeats()[0].GetToken(), bot, sdk.Options{}); err != nil {
			tb.Fatal(err)
		}
		jm.done.Wait()
	}
	return played
}

// recording is the context key of the list a recorded stream's messages go to.
type recording struct{}

// record is a client stream interceptor that records a stream's messages (recordingStream)
// if its context holds a list under recording{}.
func record(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	cs, err := streamer(ctx, desc, cc, method, opts...)
	if into, ok := ctx.Value(recording{}).(*[]*orreryv1.PlayResponse); ok && err == nil {
		return recordingStream{cs, into}, nil
	}
	return cs, err
}

// recordingStream is a client stream that keeps a copy of every PlayResponse it receives.
type recordingStream struct {
	grpc.ClientStream
	into *[]*orreryv1.PlayResponse
}

func (r recordingStream) RecvMsg(m any) error {
	err := r.ClientStream.RecvMsg(m)
	if resp, ok := m.(*orreryv1.PlayResponse); ok && err == nil {
		*r.into = append(*r.into, proto.Clone(resp).(*orreryv1.PlayResponse))
	}
	return err
}

// TestReplayServer_ReplaysWhatTheArenaSent: the floor benchmarks' replay gives a bot, message
// for message, what the arena gave it: the same kinds in the same order, the same decisions
// (ids and legal lists) and the same end, so that the floor is the arena's own traffic.
func TestReplayServer_ReplaysWhatTheArenaSent(t *testing.T) {
	const games = 6
	recorded := recordedSeatPlay(t, games)
	conn := replaying(t, recorded)
	replayed := make([][]*orreryv1.PlayResponse, games)
	recorder, err := grpc.NewClient(conn.Target(), grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithStreamInterceptor(record))
	if err != nil {
		t.Fatal(err)
	}
	defer recorder.Close()
	for k := range games {
		ctx := context.WithValue(context.Background(), recording{}, &replayed[k])
		end, err := sdk.Play(ctx, recorder, strconv.Itoa(k), bots.Func(random.New(uint64(k)*7).Act), sdk.Options{})
		if err != nil {
			t.Fatalf("replay %d: %v", k, err)
		}
		if end.GetResult() == nil {
			t.Fatalf("replay %d ended without a result", k)
		}
		if len(recorded[k]) < 4 { // Joined, a decision at least, the events, the end
			t.Fatalf("game %d recorded %d messages", k, len(recorded[k]))
		}
		if len(replayed[k]) != len(recorded[k]) {
			t.Fatalf("replay %d: %d messages, the arena sent %d", k, len(replayed[k]), len(recorded[k]))
		}
		for i, got := range replayed[k] {
			if want := recorded[k][i]; !proto.Equal(got, want) {
				t.Fatalf("replay %d, message %d: %v, the arena sent %v", k, i, got, want)
			}
		}
	}
	// An unknown stream is refused with a reason.
	_, err = sdk.Play(context.Background(), conn, "no such", bots.Func(random.New(0).Act), sdk.Options{})
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("unknown replay: %v, want InvalidArgument", err)
	}
}
