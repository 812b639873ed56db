package wire

import (
	"runtime"
	"testing"
	"time"

	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/icetraders"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

func TestAppendDecisionResponse_SameMessageAsMarshal(t *testing.T) {
	if n := (&orreryv1.Decision{}).ProtoReflect().Descriptor().Fields().Len(); n != decisionFields {
		t.Fatalf("Decision has %d fields, setWithoutLegal copies %d: copy the new field there", n, decisionFields)
	}
	st, err := engine.New("icetraders", engine.Config{Seats: 3, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	var cache ActionCache
	seats := st.ToAct(nil)
	legal := st.Legal(seats[0], nil)
	for _, recv := range []*orreryv1.Receive{nil, {OmitText: true}, {OmitLegalNotation: true, OmitObservation: true}} {
		for round := 0; round < 2; round++ { // first from fresh envelopes, then from cached bytes
			d := DecisionFor(st, seats[0], legal, 7, &cache, recv)
			d.DecisionId, d.MatchId = "d7.1", "m1"
			d.Deadline, d.TimeBank = timestamppb.Now(), durationpb.New(3e9)
			d.Events = []*orreryv1.Event{{Seq: 4}, {Seq: 5}}
			want := &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Decision{Decision: d}}
			b, err := AppendDecisionResponse(nil, d)
			if err != nil {
				t.Fatal(err)
			}
			got := &orreryv1.PlayResponse{}
			if err := proto.Unmarshal(b, got); err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(got, want) {
				t.Fatalf("receive %v, round %d: decoded message differs from the original", recv, round)
			}
			if std, _ := proto.Marshal(want); len(std) != len(b) {
				t.Errorf("receive %v: %d bytes, proto.Marshal writes %d", recv, len(b), len(std))
			}
		}
	}
}

// MarshalDecisionResponse gives AppendDecisionResponse's bytes, a large message in a buffer
// of gRPC's pool and a small one not: a freed pooled buffer is written over by the next
// message that takes it, so both must read the same as proto.Marshal.
func TestMarshalDecisionResponse_PooledWhenLarge(t *testing.T) {
	st, seats, legal := longList(t)
	var cache ActionCache
	for _, tc := range []struct {
		name  string
		recv  *orreryv1.Receive
		large bool
	}{
		{"everything", nil, true},
		{"count alone", &orreryv1.Receive{OmitLegal: true, OmitLegalNotation: true, OmitText: true, OmitObservation: true}, false},
	} {
		for round := 0; round < 3; round++ { // the later rounds take the buffers the first freed
			d := DecisionFor(st, seats[0], legal, 7, &cache, tc.recv)
			d.DecisionId, d.MatchId = "d7.1", "m1"
			want, err := proto.Marshal(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Decision{Decision: d}})
			if err != nil {
				t.Fatal(err)
			}
			if got := !mem.IsBelowBufferPoolingThreshold(len(want)); got != tc.large {
				t.Fatalf("%s: %d bytes: large %v, the test expects %v", tc.name, len(want), got, tc.large)
			}
			data, err := MarshalDecisionResponse(d)
			if err != nil {
				t.Fatal(err)
			}
			b := data.Materialize()
			data.Free()
			if len(b) != len(want) {
				t.Fatalf("%s, round %d: %d bytes, proto.Marshal writes %d", tc.name, round, len(b), len(want))
			}
			got := &orreryv1.PlayResponse{}
			if err := proto.Unmarshal(b, got); err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(got, &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Decision{Decision: d}}) {
				t.Fatalf("%s, round %d: decoded message differs from the original", tc.name, round)
			}
		}
	}
}

// longList is a 4-seat IceTraders game at its opening picks, whose seats to act and first
// seat's legal list: a long list.
func longList(tb testing.TB) (engine.State, []engine.Seat, []engine.Action) {
	st, err := engine.New("icetraders", engine.Config{Seats: 4, Seed: 5})
	if err != nil {
		tb.Fatal(err)
	}
	seats := st.ToAct(nil)
	legal := st.Legal(seats[0], nil)
	for len(legal) < 100 {
		for _, s := range seats {
			if err := st.Apply(s, st.Legal(s, nil)[0]); err != nil {
				tb.Fatal(err)
			}
		}
		seats = st.ToAct(seats[:0])
		legal = st.Legal(seats[0], legal[:0])
	}
	return st, seats, legal
}

func BenchmarkMarshalDecision(b *testing.B) {
	st, seats, legal := longList(b)
	var cache ActionCache
	d := DecisionFor(st, seats[0], legal, 0, &cache, nil)
	resp := &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Decision{Decision: d}}
	b.Run("proto.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := proto.Marshal(resp); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := AppendDecisionResponse(nil, d); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.ReportMetric(float64(len(d.GetLegal())), "actions")
}

// The codec's generated marshalling writes what proto.Unmarshal reads back as the same
// message, and its trusted decoding reads proto.Marshal's bytes as the same message.
func TestCodec_SameMessagesAsTheStandardCodec(t *testing.T) {
	st, err := engine.New("icetraders", engine.Config{Seats: 3, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	seats := st.ToAct(nil)
	d := Decision(st, seats[0], st.Legal(seats[0], nil), 7)
	d.DecisionId, d.MatchId = "d7.1", "m1"
	d.Deadline, d.TimeBank = timestamppb.Now(), durationpb.New(3e9)
	d.Events = []*orreryv1.Event{{Seq: 4, Kind: &orreryv1.Event_TimedOut{TimedOut: &orreryv1.SeatTimedOut{Seat: 1}}}}
	msgs := []proto.Message{
		&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Decision{Decision: d}},
		&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Joined{Joined: &orreryv1.Joined{MatchId: "m1", Options: map[string]string{"stash": "3", "turn_cap": "40"}}}},
		&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "d7.1", Choice: &orreryv1.Answer_Notation{Notation: "pick red small, blue large"}}}},
	}
	for _, trusted := range []bool{false, true} {
		c := Codec{Trusted: trusted}
		for _, m := range msgs {
			b, err := c.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			got := m.ProtoReflect().New().Interface()
			if err := proto.Unmarshal(b.Materialize(), got); err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(got, m) {
				t.Errorf("%T: the codec's bytes decode to another message", m)
			}
			std, err := proto.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			back := m.ProtoReflect().New().Interface()
			proto.Merge(back, m) // decoding replaces what the message held: merged, lists would double
			if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(std)}, back); err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(back, m) {
				t.Errorf("%T, trusted %v: decoded as another message", m, trusted)
			}
		}
	}
}

// The encoded bytes of a cache's envelopes are dropped with the cache: a server drops the
// caches of option sets it no longer plays, and the bytes were kept for the process's life.
func TestActionCache_EncodedBytesGoWithTheCache(t *testing.T) {
	st, err := engine.New("icetraders", engine.Config{Seats: 3, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	seat := st.ToAct(nil)[0]
	encoded := func(envs []*orreryv1.Action) int {
		n := 0
		for _, env := range envs {
			if _, ok := encodedLegal.Load(env); ok {
				n++
			}
		}
		return n
	}
	envs := func() []*orreryv1.Action { // the cache is unreachable once this returns
		cache := new(ActionCache)
		envs := CachedDecision(st, seat, st.Legal(seat, nil), 0, cache).GetLegal()
		if n := encoded(envs); len(envs) == 0 || n != len(envs) {
			t.Fatalf("%d of %d envelopes encoded while the cache lives", n, len(envs))
		}
		return envs
	}()
	for i := 0; i < 20 && encoded(envs) > 0; i++ {
		runtime.GC() // the cleanup runs on its own goroutine after a collection
		time.Sleep(10 * time.Millisecond)
	}
	if n := encoded(envs); n != 0 {
		t.Errorf("%d of %d envelopes still encoded after the cache was collected", n, len(envs))
	}
}

// A message sent costs its bytes and one block for the list gRPC takes them in, and a
// decision's wire form is its bytes alone, grown once: every message of a match goes this way.
func TestMarshal_AllocationsPerMessage(t *testing.T) {
	st, err := engine.New("icetraders", engine.Config{Seats: 3, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	var cache ActionCache
	seats := st.ToAct(nil)
	legal := st.Legal(seats[0], nil)
	d := DecisionFor(st, seats[0], legal, 7, &cache, &orreryv1.Receive{OmitText: true, OmitObservation: true, OmitLegalNotation: true})
	d.DecisionId, d.MatchId = "d7.1", "m1"
	if _, err := AppendDecisionResponse(nil, d); err != nil { // the envelopes' bytes are cached from here on
		t.Fatal(err)
	}
	answer := &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "d7.1", Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 2}}}}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := (Codec{}).Marshal(answer); err != nil {
			t.Fatal(err)
		}
	}); n != 2 {
		t.Errorf("a small message: %v allocations, want 2 (its bytes, and the list)", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := AppendDecisionResponse(nil, d); err != nil {
			t.Fatal(err)
		}
	}); n != 1 {
		t.Errorf("a decision: %v allocations, want 1 (its bytes)", n)
	}
	// A large decision as the server's codec sends it: its bytes in a pooled buffer, which
	// gRPC frees once written, so only the list of one buffer is new.
	st, seats, legal = longList(t)
	large := DecisionFor(st, seats[0], legal, 0, &cache, nil)
	if n := testing.AllocsPerRun(100, func() {
		data, err := MarshalDecisionResponse(large)
		if err != nil {
			t.Fatal(err)
		}
		data.Free()
	}); n != 1 {
		t.Errorf("a large decision in a pooled buffer: %v allocations, want 1 (the list)", n)
	}
}
