package service

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/tracing"
)

// otlpReceiver is a small OTLP/gRPC collector: it keeps every span exported to it.
type otlpReceiver struct {
	collectortrace.UnimplementedTraceServiceServer
	mu    sync.Mutex // guards spans
	spans []*tracepb.Span
}

func (r *otlpReceiver) Export(_ context.Context, req *collectortrace.ExportTraceServiceRequest) (*collectortrace.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			r.spans = append(r.spans, ss.GetSpans()...)
		}
	}
	return &collectortrace.ExportTraceServiceResponse{}, nil
}

func (r *otlpReceiver) received() []*tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*tracepb.Span(nil), r.spans...)
}

// startReceiver serves an otlpReceiver on a loopback port and returns it and its address.
func startReceiver(t *testing.T) (*otlpReceiver, string) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &otlpReceiver{}
	gs := grpc.NewServer()
	collectortrace.RegisterTraceServiceServer(gs, r)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	return r, lis.Addr().String()
}

func attr(s *tracepb.Span, key string) *commonpb.AnyValue {
	for _, kv := range s.GetAttributes() {
		if kv.GetKey() == key {
			return kv.GetValue()
		}
	}
	return nil
}

// TestTracing_OneMatchIsOneTrace sends a server's traces to a receiver the test starts, plays
// one match, and finds its whole story in one trace: the CreateMatch call (otelgrpc), the
// create, the store's commit of the new match, the match, and a span for each decision,
// each named by the match id and the seat; the journal's commits of its steps name it too.
// No span carries a seat token, the seed, or an action (IceTraders' secret alignments among
// them).
func TestTracing_OneMatchIsOneTrace(t *testing.T) {
	recv, addr := startReceiver(t)
	tp, err := tracing.Setup(context.Background(), addr, "node-t")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, Config{Store: memStore(t), Tracing: tp}, GRPCOptions{Tracing: tp})
	created := h.create(&orreryv1.CreateMatchRequest{Game: "icetraders", Seats: 3, Seed: seed(8817264519273645123)}) // a seed long enough to look for
	id := created.GetMatchId()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h.playRandom(ctx, created, nil)
	rep, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	h.srv.Close()
	if err := tp.Shutdown(ctx); err != nil { // flushes every span to the receiver
		t.Fatal(err)
	}
	spans := recv.received()
	t.Logf("%d spans received", len(spans))

	byName := map[string][]*tracepb.Span{}
	for _, s := range spans {
		byName[s.GetName()] = append(byName[s.GetName()], s)
	}
	ofMatch := func(name string) []*tracepb.Span {
		var out []*tracepb.Span
		for _, s := range byName[name] {
			if attr(s, "orrery.match_id").GetStringValue() == id {
				out = append(out, s)
			}
		}
		return out
	}
	rpc := byName["orrery.v1.ArenaService/CreateMatch"]
	creates, matches, decisions := ofMatch("orrery.create"), ofMatch("orrery.match"), ofMatch("orrery.decision")
	if len(rpc) != 1 || len(creates) != 1 || len(matches) != 1 {
		t.Fatalf("%d CreateMatch call spans, %d creates and %d match spans of %s; want 1 each (spans: %v)", len(rpc), len(creates), len(matches), id, names(spans))
	}
	trace := string(rpc[0].GetTraceId())
	if string(creates[0].GetParentSpanId()) != string(rpc[0].GetSpanId()) || string(matches[0].GetParentSpanId()) != string(creates[0].GetSpanId()) {
		t.Error("the match's span is not the create's child, nor the create the call's")
	}
	if got := attr(matches[0], "orrery.end_reason").GetStringValue(); got == "" {
		t.Error("the match's span does not say how it ended")
	}
	// Every applied step was a decision answered (or timed out) by its seat, in the trace.
	answered := map[string]int{}
	for _, d := range decisions {
		if string(d.GetTraceId()) != trace || string(d.GetParentSpanId()) != string(matches[0].GetSpanId()) {
			t.Errorf("decision %s is not in the match's trace", attr(d, "orrery.decision_id").GetStringValue())
		}
		if attr(d, "orrery.seat") == nil || attr(d, "orrery.decision_id").GetStringValue() == "" {
			t.Errorf("a decision span without its seat or id: %v", d.GetAttributes())
		}
		answered[attr(d, "orrery.outcome").GetStringValue()]++
	}
	if answered["answered"]+answered["timed_out"] != len(rep.GetSteps()) {
		t.Errorf("decision outcomes %v for %d steps", answered, len(rep.GetSteps()))
	}
	var commits, stepsCommitted int
	for _, c := range byName["orrery.store.commit"] {
		for _, v := range attr(c, "orrery.match_ids").GetArrayValue().GetValues() {
			if v.GetStringValue() == id {
				commits++
				stepsCommitted += int(attr(c, "orrery.steps").GetIntValue())
			}
		}
	}
	if commits < 2 || stepsCommitted < 1 { // the create's commit, and the log's
		t.Errorf("%d store commits name %s, with %d steps", commits, id, stepsCommitted)
	}
	t.Logf("match %s: %d decision spans %v, %d store commits (%d steps), %d steps in the replay", id, len(decisions), answered, commits, stepsCommitted, len(rep.GetSteps()))

	// Nothing secret: no token, no seed, no action's notation in any attribute.
	secrets := []string{fmt.Sprint(rep.GetSeed()), rep.GetSeedSalt()}
	for _, s := range created.GetSeats() {
		secrets = append(secrets, s.GetToken(), s.GetToken()[strings.IndexByte(s.GetToken(), '.')+1:])
	}
	actions := map[string]bool{}
	for _, st := range rep.GetSteps() {
		actions[st.GetNotation()] = true
	}
	for _, s := range spans {
		for _, kv := range s.GetAttributes() {
			v := kv.GetValue().String()
			for _, secret := range secrets {
				if secret != "" && strings.Contains(v, secret) {
					t.Errorf("span %s attribute %s holds a secret", s.GetName(), kv.GetKey())
				}
			}
			if actions[kv.GetValue().GetStringValue()] {
				t.Errorf("span %s attribute %s is an action: %q", s.GetName(), kv.GetKey(), kv.GetValue().GetStringValue())
			}
		}
	}
}

func names(spans []*tracepb.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.GetName())
	}
	return out
}

// TestTracing_OffByDefault: a server given no tracer provider makes no spans; the endpoint
// is the flag's, else the standard environment variable's, else none (off).
func TestTracing_OffByDefault(t *testing.T) {
	h := newHarness(t, Config{Store: memStore(t)})
	if h.srv.env.Tracer != nil {
		t.Error("a server without Config.Tracing has a tracer")
	}
	t.Setenv(tracing.EnvEndpoint, "")
	if got := tracing.Endpoint(""); got != "" {
		t.Errorf("no flag, no environment: endpoint %q, want none", got)
	}
	t.Setenv(tracing.EnvEndpoint, "collector:4317")
	if got := tracing.Endpoint(""); got != "collector:4317" {
		t.Errorf("from the environment: %q", got)
	}
	if got := tracing.Endpoint("http://flag:4317"); got != "http://flag:4317" {
		t.Errorf("the flag wins: %q", got)
	}
	if _, err := tracing.Setup(context.Background(), "ftp://x", ""); err == nil {
		t.Error("an endpoint of another scheme: no error")
	}
}
