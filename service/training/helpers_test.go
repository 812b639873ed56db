package training

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"net"
	"testing"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// serve starts the service on lis and returns a client; both stop with the test.
func serve(t testing.TB, lis net.Listener, dial func(context.Context, string) (net.Conn, error)) orreryv1.TrainingServiceClient {
	t.Helper()
	g := grpc.NewServer(grpc.ForceServerCodecV2(wire.Codec{}))
	New(Config{}).Register(g)
	go g.Serve(lis)
	// A step's results hold every environment's tensor: 256 IceTraders views are 6 MiB.
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(1<<30), grpc.ForceCodecV2(wire.Codec{Trusted: true})),
		grpc.WithInitialWindowSize(1 << 26), grpc.WithInitialConnWindowSize(1 << 26)}
	target := lis.Addr().String()
	if dial != nil {
		opts = append(opts, grpc.WithContextDialer(dial))
		target = "passthrough:///bufnet"
	}
	conn, err := grpc.NewClient(target, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		g.Stop()
	})
	return orreryv1.NewTrainingServiceClient(conn)
}

// bufClient is a client over an in-memory connection.
func bufClient(t testing.TB) orreryv1.TrainingServiceClient {
	lis := bufconn.Listen(1 << 20)
	return serve(t, lis, func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) })
}

// open starts a Train stream with req and returns it with the spec.
func open(t testing.TB, c orreryv1.TrainingServiceClient, req *orreryv1.OpenEnvironments) (orreryv1.TrainingService_TrainClient, *orreryv1.EnvironmentSpec) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s, err := c.Train(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(&orreryv1.TrainRequest{Kind: &orreryv1.TrainRequest_Open{Open: req}}); err != nil {
		t.Fatal(err)
	}
	resp, err := s.Recv()
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s, resp.GetSpec()
}

// seeds is n consecutive seeds from first.
func seeds(first uint64, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = first + uint64(i)
	}
	return out
}

// pickRandom chooses a uniform legal action in every environment of res, appending its ids
// (heads per environment) to buf as the wire's bytes; chosen gets the ids too.
func pickRandom(r *rand.Rand, res *orreryv1.StepResults, heads int, buf []byte, chosen []int32) ([]byte, []int32) {
	buf, chosen = buf[:0], chosen[:0]
	at := 0
	for _, n := range res.LegalCounts {
		k := r.IntN(int(n))
		for h := range heads {
			id := int32(binary.LittleEndian.Uint32(res.LegalIds[4*(at+k*heads+h):]))
			buf = binary.LittleEndian.AppendUint32(buf, uint32(id))
			chosen = append(chosen, id)
		}
		at += int(n) * heads
	}
	return buf, chosen
}

// step sends one step and returns its results.
func step(t testing.TB, s orreryv1.TrainingService_TrainClient, ids []byte) *orreryv1.StepResults {
	t.Helper()
	if err := s.Send(&orreryv1.TrainRequest{Kind: &orreryv1.TrainRequest_Step{Step: &orreryv1.StepEnvironments{ActionIds: ids}}}); err != nil {
		t.Fatal(err)
	}
	resp, err := s.Recv()
	if err != nil {
		t.Fatalf("step: %v", err)
	}
	return resp.GetResults()
}
