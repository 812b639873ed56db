package training

import (
	"context"
	"encoding/binary"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"slices"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// shortGames keeps every game's episodes short.
var shortGames = []struct {
	game  string
	seats int32
	opts  map[string]string
}{
	{"icetraders", 2, map[string]string{"turn_cap": "20"}},
	{"planet", 2, nil},
	{"pantropia", 3, map[string]string{"turn_cap": "20"}},
	{"fccatan", 3, map[string]string{"round_seconds": "2", "tick_rate": "5", "top_speed_cm_s": "5000", "round_cap": "2"}},
}

func TestTrain_EveryGameEndsEpisodes(t *testing.T) {
	c := bufClient(t)
	for _, g := range shortGames {
		t.Run(g.game, func(t *testing.T) {
			const n = 8
			s, spec := open(t, c, &orreryv1.OpenEnvironments{Game: g.game, Seats: g.seats, Options: g.opts, Seeds: seeds(1, n), ControlledSeats: []int32{0}})
			size := 1
			for _, d := range spec.ObservationShape {
				size *= int(d)
			}
			heads := len(spec.ActionHeads)
			if spec.Environments != n || heads == 0 || len(spec.Slices) == 0 {
				t.Fatalf("spec: %d environments, heads %v, %d slices", spec.Environments, spec.ActionHeads, len(spec.Slices))
			}
			r := rand.New(rand.NewPCG(1, 2))
			res := spec.First
			var buf []byte
			var chosen []int32
			ended, truncated := 0, 0
			for k := 0; k < 400; k++ {
				checkResults(t, res, n, size, int(g.seats), spec.ActionHeads)
				for i := range n {
					if res.Seats[i] != 0 {
						t.Fatalf("environment %d: seat %d to act, the trainer plays seat 0 only", i, res.Seats[i])
					}
				}
				buf, chosen = pickRandom(r, res, heads, buf, chosen)
				res = step(t, s, buf)
				for i := range n {
					if res.Terminated[i] == 1 || res.Truncated[i] == 1 {
						ended++
					}
					truncated += int(res.Truncated[i])
				}
			}
			if ended == 0 {
				t.Errorf("no episode of %d environments ended in 400 steps", n)
			}
			t.Logf("%s: %d episodes ended (%d truncated) in 400 steps of %d environments", g.game, ended, truncated, n)
		})
	}
}

// checkResults checks one message's sizes and values.
func checkResults(t *testing.T, res *orreryv1.StepResults, n, size, seats int, heads []int32) {
	t.Helper()
	if len(res.Observations) != 4*n*size || len(res.Rewards) != 4*n*seats || len(res.Terminated) != n || len(res.Truncated) != n ||
		len(res.Seats) != n || len(res.LegalCounts) != n || len(res.EpisodeSeeds) != n || len(res.EpisodeSteps) != n {
		t.Fatalf("results sized wrong: %d observation bytes for %d x %d floats", len(res.Observations), n, size)
	}
	total := 0
	for i, c := range res.LegalCounts {
		if c < 1 {
			t.Fatalf("environment %d has %d legal actions", i, c)
		}
		total += int(c)
	}
	if len(res.LegalIds) != 4*total*len(heads) {
		t.Fatalf("%d legal id bytes for %d actions of %d heads", len(res.LegalIds), total, len(heads))
	}
	for k := 0; k < total*len(heads); k++ {
		id := int32(binary.LittleEndian.Uint32(res.LegalIds[4*k:]))
		if h := k % len(heads); id < 0 || id >= heads[h] {
			t.Fatalf("legal id %d of head %d out of 0..%d", id, h, heads[h]-1)
		}
	}
	for i := range n {
		ended := res.Terminated[i] == 1
		var sum float32
		for s := range seats {
			v := math.Float32frombits(binary.LittleEndian.Uint32(res.Rewards[4*(i*seats+s):]))
			if v < -1 || v > 1 || (!ended && v != 0) {
				t.Fatalf("environment %d seat %d: reward %v (terminated %v)", i, s, v, ended)
			}
			sum += v
		}
		if ended && math.Abs(float64(sum)) > 1e-5 {
			t.Errorf("environment %d: rewards sum to %v, want 0", i, sum)
		}
	}
}

func TestTrain_SameSeedsSameEpisodes(t *testing.T) {
	c := bufClient(t)
	for _, g := range shortGames[:2] {
		t.Run(g.game, func(t *testing.T) {
			req := &orreryv1.OpenEnvironments{Game: g.game, Seats: g.seats, Options: g.opts, Seeds: seeds(7, 4), ControlledSeats: []int32{1}, Opponents: []string{"greedy"}}
			a, specA := open(t, c, req)
			b, specB := open(t, c, req)
			if !proto.Equal(specA, specB) {
				t.Fatal("two opens of one request differ")
			}
			ra := rand.New(rand.NewPCG(3, 4))
			resA := specA.First
			var buf []byte
			var chosen []int32
			for k := 0; k < 150; k++ {
				buf, chosen = pickRandom(ra, resA, len(specA.ActionHeads), buf, chosen)
				resA = step(t, a, buf)
				resB := step(t, b, buf)
				if !proto.Equal(resA, resB) {
					t.Fatalf("step %d: same seeds and actions, different results", k)
				}
			}
		})
	}
}

func TestTrain_SelfPlayActsForEverySeat(t *testing.T) {
	c := bufClient(t)
	s, spec := open(t, c, &orreryv1.OpenEnvironments{Game: "planet", Seats: 3, Seeds: seeds(1, 2)})
	r := rand.New(rand.NewPCG(1, 1))
	seen := map[int32]bool{}
	res := spec.First
	var buf []byte
	var chosen []int32
	for k := 0; k < 30; k++ {
		for _, seat := range res.Seats {
			seen[seat] = true
		}
		buf, chosen = pickRandom(r, res, 1, buf, chosen)
		res = step(t, s, buf)
	}
	if len(seen) != 3 {
		t.Errorf("self-play acted for seats %v, want all of 0, 1, 2", seen)
	}
}

func TestTrain_RejectsBadRequests(t *testing.T) {
	c := bufClient(t)
	planet := func() *orreryv1.OpenEnvironments {
		return &orreryv1.OpenEnvironments{Game: "planet", Seats: 2, Seeds: seeds(1, 2), ControlledSeats: []int32{0}}
	}
	for _, tc := range []struct {
		name  string
		first *orreryv1.TrainRequest
		step  func(res *orreryv1.StepResults) []byte // nil: the open itself is refused
		want  codes.Code
	}{
		{"step before open", &orreryv1.TrainRequest{Kind: &orreryv1.TrainRequest_Step{Step: &orreryv1.StepEnvironments{}}}, nil, codes.InvalidArgument},
		{"unknown game", openReq(func(o *orreryv1.OpenEnvironments) { o.Game = "chess" }, planet()), nil, codes.InvalidArgument},
		{"no seeds", openReq(func(o *orreryv1.OpenEnvironments) { o.Seeds = nil }, planet()), nil, codes.InvalidArgument},
		{"too many seats", openReq(func(o *orreryv1.OpenEnvironments) { o.Seats = 9 }, planet()), nil, codes.InvalidArgument},
		{"unknown opponent", openReq(func(o *orreryv1.OpenEnvironments) { o.Opponents = []string{"oracle"} }, planet()), nil, codes.InvalidArgument},
		{"seat out of range", openReq(func(o *orreryv1.OpenEnvironments) { o.ControlledSeats = []int32{2} }, planet()), nil, codes.InvalidArgument},
		{"bad option", openReq(func(o *orreryv1.OpenEnvironments) { o.Options = map[string]string{"nope": "1"} }, planet()), nil, codes.InvalidArgument},
		{"short step", openReq(nil, planet()), func(*orreryv1.StepResults) []byte { return []byte{1, 2, 3} }, codes.InvalidArgument},
		{"illegal id", openReq(func(o *orreryv1.OpenEnvironments) { o.Game = "icetraders" }, planet()), func(res *orreryv1.StepResults) []byte {
			// Id 2, an opening pick, while the seats choose their alignments (ids 0 and 1).
			return slices.Repeat(binary.LittleEndian.AppendUint32(nil, 2), 2)
		}, codes.FailedPrecondition},
		{"id out of range", openReq(nil, planet()), func(res *orreryv1.StepResults) []byte {
			return slices.Repeat(binary.LittleEndian.AppendUint32(nil, 300), 2)
		}, codes.FailedPrecondition},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s, err := c.Train(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Send(tc.first); err != nil {
				t.Fatal(err)
			}
			resp, err := s.Recv()
			if tc.step != nil {
				if err != nil {
					t.Fatalf("open: %v", err)
				}
				if err := s.Send(&orreryv1.TrainRequest{Kind: &orreryv1.TrainRequest_Step{Step: &orreryv1.StepEnvironments{ActionIds: tc.step(resp.GetSpec().First)}}}); err != nil {
					t.Fatal(err)
				}
				_, err = s.Recv()
			}
			if status.Code(err) != tc.want {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
}

// openReq is an open request, changed by edit.
func openReq(edit func(*orreryv1.OpenEnvironments), o *orreryv1.OpenEnvironments) *orreryv1.TrainRequest {
	if edit != nil {
		edit(o)
	}
	return &orreryv1.TrainRequest{Kind: &orreryv1.TrainRequest_Open{Open: o}}
}

func TestTrain_SparseObservationsAreTheDenseOnes(t *testing.T) {
	c := bufClient(t)
	for _, g := range shortGames {
		t.Run(g.game, func(t *testing.T) {
			req := &orreryv1.OpenEnvironments{Game: g.game, Seats: g.seats, Options: g.opts, Seeds: seeds(3, 4), ControlledSeats: []int32{0}}
			d, spec := open(t, c, req)
			sreq := proto.CloneOf(req)
			sreq.ObservationEncoding = orreryv1.ObservationEncoding_OBSERVATION_ENCODING_SPARSE
			s, sspec := open(t, c, sreq)
			size := len(spec.First.Observations) / 4 / 4
			r := rand.New(rand.NewPCG(5, 5))
			dres, sres := spec.First, sspec.First
			var buf []byte
			var chosen []int32
			for k := 0; k < 50; k++ {
				dense := make([]byte, len(dres.Observations))
				at := 0
				for i, nz := range sres.ObservationNonzeros {
					for j := 0; j < int(nz); j++ {
						idx := int(binary.LittleEndian.Uint32(sres.ObservationIndices[4*at:]))
						if idx < 0 || idx >= size {
							t.Fatalf("index %d out of 0..%d", idx, size-1)
						}
						copy(dense[4*(i*size+idx):], sres.Observations[4*at:4*at+4])
						at++
					}
				}
				if !slices.Equal(dense, dres.Observations) {
					t.Fatalf("step %d: sparse observations differ from the dense ones", k)
				}
				buf, chosen = pickRandom(r, dres, len(spec.ActionHeads), buf, chosen)
				dres, sres = step(t, d, buf), step(t, s, buf)
			}
		})
	}
}

func TestTrain_StreamsBeyondTheLimitAreRefused(t *testing.T) {
	lis := bufconn.Listen(1 << 20)
	g := grpc.NewServer()
	New(Config{Streams: 1}).Register(g)
	go g.Serve(lis)
	defer g.Stop()
	conn, err := grpc.NewClient("passthrough:///bufnet", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := orreryv1.NewTrainingServiceClient(conn)
	first, _ := open(t, c, &orreryv1.OpenEnvironments{Game: "planet", Seats: 2, Seeds: seeds(1, 1)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	second, err := c.Train(ctx)
	if err != nil {
		t.Fatal(err)
	}
	second.Send(&orreryv1.TrainRequest{Kind: &orreryv1.TrainRequest_Open{Open: &orreryv1.OpenEnvironments{Game: "planet", Seats: 2, Seeds: seeds(1, 1)}}})
	if _, err := second.Recv(); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("a second stream: %v, want ResourceExhausted", err)
	}
	first.CloseSend()
	if _, err := first.Recv(); err != io.EOF {
		t.Errorf("the first stream ends with %v, want EOF", err)
	}
	// Its slot is free again once it has ended.
	for range 100 {
		s, err := c.Train(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		s.Send(&orreryv1.TrainRequest{Kind: &orreryv1.TrainRequest_Open{Open: &orreryv1.OpenEnvironments{Game: "planet", Seats: 2, Seeds: seeds(1, 1)}}})
		_, err = s.Recv()
		s.CloseSend()
		for err == nil {
			_, err = s.Recv()
		}
		if err == io.EOF {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Error("the slot of an ended stream was never free again")
}
