package service

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// rawCodec sends bytes as they are, to put garbage on the wire.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *(v.(*[]byte)), nil }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*(v.(*[]byte)) = append([]byte(nil), data...)
	return nil
}
func (rawCodec) Name() string { return "proto" } // the server decodes as protobuf

var _ encoding.Codec = rawCodec{}

func rawPlay(t *testing.T, h *harness, frames ...[]byte) error {
	t.Helper()
	desc := &grpc.StreamDesc{StreamName: "Play", ServerStreams: true, ClientStreams: true}
	cs, err := h.conn.NewStream(context.Background(), desc, orreryv1.ArenaService_Play_FullMethodName, grpc.ForceCodec(rawCodec{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if err := cs.SendMsg(&f); err != nil {
			break
		}
	}
	for {
		var out []byte
		if err := cs.RecvMsg(&out); err != nil {
			return err
		}
	}
}

func TestPlay_GarbageBytesOnTheWireAreInvalidArgument(t *testing.T) {
	h := newHarness(t, Config{})
	created := h.create(&orreryv1.CreateMatchRequest{})
	// Not protobuf at all: a truncated length-delimited field.
	// grpc-go itself ends the stream with Internal "failed to unmarshal" before the handler
	// sees the bytes; the handler then returns InvalidArgument, which is what is logged.
	err := rawPlay(t, h, []byte{0x0a, 0xff, 0x01, 0x02})
	if !undecodable(err) {
		t.Errorf("garbage first message: got %v, want a failed-to-unmarshal status", err)
	}
	// A good join followed by garbage: the stream ends with InvalidArgument, the match does not.
	join, _ := proto.Marshal(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: created.GetSeats()[0].GetToken()}}})
	err = rawPlay(t, h, join, []byte{0x12, 0x80})
	if !undecodable(err) {
		t.Errorf("garbage after join: got %v, want a failed-to-unmarshal status", err)
	}
	h.playRandom(context.Background(), created, nil)
}

// lockedBuffer is a log sink safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestLogs_NeverHoldTokensOrTheSeed(t *testing.T) {
	var logs lockedBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h := newHarness(t, Config{Logger: logger, Store: memStore(t)})
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(987654321)})
	h.playRandom(context.Background(), created, nil)
	out := logs.String()
	if !strings.Contains(out, created.GetMatchId()) {
		t.Fatalf("the log does not mention the match at all:\n%s", out)
	}
	for _, s := range created.GetSeats() {
		if strings.Contains(out, s.GetToken()) {
			t.Errorf("seat %d's token is in the log", s.GetSeat())
		}
	}
	if strings.Contains(out, "987654321") {
		t.Errorf("the seed is in the log")
	}
}

func undecodable(err error) bool {
	st, _ := status.FromError(err)
	return (st.Code() == codes.Internal || st.Code() == codes.InvalidArgument) && strings.Contains(st.Message(), "unmarshal")
}
