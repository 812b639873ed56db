package training

import (
	"math/rand/v2"
	"net"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// BenchmarkTrainingSteps steps 256 environments against random opponents, the trainer
// choosing random legal actions, over loopback gRPC and then in process (the same batch's
// engine steps and tensors, no stream), and reports both rates and their ratio.
func BenchmarkTrainingSteps(b *testing.B) {
	for _, g := range []struct {
		game  string
		seats int32
		opts  map[string]string
	}{
		{"icetraders", 2, nil},
		{"planet", 2, nil},
	} {
		for _, enc := range []orreryv1.ObservationEncoding{orreryv1.ObservationEncoding_OBSERVATION_ENCODING_UNSPECIFIED, orreryv1.ObservationEncoding_OBSERVATION_ENCODING_SPARSE} {
			name := g.game + "/dense"
			if enc == orreryv1.ObservationEncoding_OBSERVATION_ENCODING_SPARSE {
				name = g.game + "/sparse"
			}
			b.Run(name, func(b *testing.B) { benchSteps(b, g.game, g.seats, g.opts, enc) })
		}
	}
}

func benchSteps(b *testing.B, game string, seats int32, opts map[string]string, enc orreryv1.ObservationEncoding) {
	const n = 256
	req := &orreryv1.OpenEnvironments{Game: game, Seats: seats, Options: opts, Seeds: seeds(1, n), ControlledSeats: []int32{0}, Opponents: []string{"random"}, ObservationEncoding: enc}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	c := serve(b, lis, nil)
	s, spec := open(b, c, req)
	// In process the tensors stay dense: the baseline is engine steps and encoding only.
	dense := proto.CloneOf(req)
	dense.ObservationEncoding = orreryv1.ObservationEncoding_OBSERVATION_ENCODING_UNSPECIFIED
	batch, err := Open(dense)
	if err != nil {
		b.Fatal(err)
	}
	heads := len(spec.ActionHeads)
	r := rand.New(rand.NewPCG(1, 1))
	var buf []byte
	var chosen []int32
	res, mine := spec.First, batch.Results()
	// The two alternate step by step, so that a change in the machine's load falls on
	// both alike.
	var remote, local time.Duration
	var wire int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		buf, chosen = pickRandom(r, res, heads, buf, chosen)
		res = step(b, s, buf)
		remote += time.Since(start)
		wire += proto.Size(res)

		start = time.Now()
		buf, chosen = pickRandom(r, mine, heads, buf, chosen)
		if err := batch.Step(buf); err != nil {
			b.Fatal(err)
		}
		mine = batch.Results()
		local += time.Since(start)
	}
	steps := float64(n * b.N)
	b.ReportMetric(steps/remote.Seconds(), "grpc-steps/s")
	b.ReportMetric(steps/local.Seconds(), "inproc-steps/s")
	b.ReportMetric(local.Seconds()/remote.Seconds(), "ratio")
	b.ReportMetric(float64(wire)/float64(b.N), "result-bytes/step")
}
