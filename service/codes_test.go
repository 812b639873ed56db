package service

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// mixedCodec sends []byte as they are and messages as protobuf, so a test can put bytes
// that do not decode on the wire where a message is due.
type mixedCodec struct{}

func (mixedCodec) Marshal(v any) ([]byte, error) {
	if b, ok := v.([]byte); ok {
		return b, nil
	}
	return proto.Marshal(v.(proto.Message))
}
func (mixedCodec) Unmarshal(b []byte, v any) error { return proto.Unmarshal(b, v.(proto.Message)) }
func (mixedCodec) Name() string                    { return "proto" }

// garbage is not a protobuf message: field 1 with wire type 7, which does not exist.
var garbage = []byte{0x0f, 0xff, 0xff, 0xff}

// firstPlayError opens Play, sends first (a request or raw bytes) and returns the stream's end.
func firstPlayError(t *testing.T, h *harness, first any) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	desc := &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}
	cs, err := h.conn.NewStream(ctx, desc, orreryv1.ArenaService_Play_FullMethodName, grpc.ForceCodec(mixedCodec{}))
	if err != nil {
		return err
	}
	if err := cs.SendMsg(first); err != nil {
		return err
	}
	for {
		if err := cs.RecvMsg(new(orreryv1.PlayResponse)); err != nil {
			return err
		}
	}
}

func join(token string, eventsSeen *int64) *orreryv1.PlayRequest {
	return &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: token, EventsSeen: eventsSeen}}}
}

// Every status code docs/protocol.md lists ("Stream errors"), each case it names.
func TestStatusCodes_AsDocumented(t *testing.T) {
	h := newHarnessWith(t, Config{}, GRPCOptions{Authorize: AdminKey("sesame")})
	admin := metadata.AppendToOutgoingContext(context.Background(), "authorization", "bearer sesame")
	created, err := h.client.CreateMatch(admin, &orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	id, token := created.GetMatchId(), created.GetSeats()[0].GetToken()
	create := func(req *orreryv1.CreateMatchRequest) func() error {
		return func() error { _, err := h.client.CreateMatch(admin, req); return err }
	}
	neg := int64(-1)
	tests := []struct {
		name string
		do   func() error
		want codes.Code
	}{
		{"first message not join", func() error {
			return firstPlayError(t, h, &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{}}})
		}, codes.InvalidArgument},
		{"empty token", func() error { return firstPlayError(t, h, join("", nil)) }, codes.InvalidArgument},
		{"negative events_seen", func() error { return firstPlayError(t, h, join(token, &neg)) }, codes.InvalidArgument},
		{"unknown game", create(&orreryv1.CreateMatchRequest{Game: "chess", Seats: 2}), codes.InvalidArgument},
		{"unknown option", create(&orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2, Options: map[string]string{"x": "1"}}), codes.InvalidArgument},
		{"bad seat count", create(&orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 9}), codes.InvalidArgument},
		{"bad clock", create(&orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2, Clock: &orreryv1.Clock{WallClock: true}}), codes.InvalidArgument},
		{"unknown seat token", func() error { return firstPlayError(t, h, join("not-a-token", nil)) }, codes.Unauthenticated},
		{"missing admin key", func() error {
			_, err := h.client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2})
			return err
		}, codes.Unauthenticated},
		{"GetMatch of an unknown match", func() error {
			_, err := h.client.GetMatch(context.Background(), &orreryv1.GetMatchRequest{MatchId: "nope"})
			return err
		}, codes.NotFound},
		{"Watch of an unknown match", func() error {
			w, err := h.client.Watch(context.Background(), &orreryv1.WatchRequest{MatchId: "nope"})
			if err != nil {
				return err
			}
			_, err = w.Recv()
			return err
		}, codes.NotFound},
		{"GetReplay of an unknown match", func() error {
			_, err := h.client.GetReplay(context.Background(), &orreryv1.GetReplayRequest{MatchId: "nope"})
			return err
		}, codes.NotFound},
		{"ListMatches by an unknown bot", func() error {
			_, err := h.client.ListMatches(context.Background(), &orreryv1.ListMatchesRequest{Bot: "nobody"})
			return err
		}, codes.NotFound},
		{"GetReplay of a running match", func() error {
			_, err := h.client.GetReplay(context.Background(), &orreryv1.GetReplayRequest{MatchId: id})
			return err
		}, codes.FailedPrecondition},
		{"ladder join on a server without a ladder", func() error {
			return firstPlayError(t, h, &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Ladder{Ladder: &orreryv1.LadderJoin{}}})
		}, codes.FailedPrecondition},
		{"seat joined on a newer stream", func() error {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			older := h.join(ctx, token)
			h.join(ctx, token)
			for {
				if _, err := older.Recv(); err != nil {
					return err
				}
			}
		}, codes.Aborted},
		{"the bot closed its side before the end", func() error {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stream := h.join(ctx, created.GetSeats()[1].GetToken())
			stream.CloseSend()
			for {
				if _, err := stream.Recv(); err != nil {
					return err
				}
			}
		}, codes.Canceled},
		// grpc-go decodes every message itself and ends the call with its own INTERNAL
		// ("failed to unmarshal") before a handler or interceptor can answer otherwise; the
		// docs say so.
		{"bytes that do not decode on Play", func() error { return firstPlayError(t, h, garbage) }, codes.Internal},
		{"bytes that do not decode on a unary call", func() error {
			return h.conn.Invoke(admin, orreryv1.ArenaService_CreateMatch_FullMethodName, garbage, new(orreryv1.CreateMatchResponse), grpc.ForceCodec(mixedCodec{}))
		}, codes.Internal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.do(); status.Code(err) != tt.want {
				t.Errorf("got %v, want %v", err, tt.want)
			}
		})
	}
	// Last, as it closes the server: open streams end with UNAVAILABLE.
	t.Run("server shutting down", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		stream := h.join(ctx, created.GetSeats()[1].GetToken())
		h.srv.Close()
		for {
			if _, err := stream.Recv(); err != nil {
				if status.Code(err) != codes.Unavailable {
					t.Errorf("got %v, want Unavailable", err)
				}
				return
			}
		}
	})
}
