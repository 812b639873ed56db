package service

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// recordsHandler hands every record logged to a channel.
type recordsHandler struct{ records chan<- slog.Record }

func (h recordsHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h recordsHandler) Handle(_ context.Context, r slog.Record) error {
	h.records <- r.Clone()
	return nil
}
func (h recordsHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h recordsHandler) WithGroup(string) slog.Handler      { return h }

// contextStream is a server stream of which the interceptor reads only the context.
type contextStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s contextStream) Context() context.Context { return s.ctx }

// A stream's start and finish are each logged once, with its method and, at the finish,
// its status code, as go-grpc-middleware's logging interceptor logs them.
func TestLogStreams_StartAndFinishWithMethodAndCode(t *testing.T) {
	tests := []struct {
		name  string
		err   error
		code  string
		level slog.Level
	}{
		{"ok", nil, "OK", slog.LevelInfo},
		{"replaced", errReplaced, "Aborted", slog.LevelWarn},
		{"internal", status.Error(codes.Internal, "boom"), "Internal", slog.LevelError},
		// A handler that ends with its stream's context (the client went) is not an error.
		{"cancelled", context.Canceled, "Canceled", slog.LevelInfo},
		{"deadline", fmt.Errorf("watch: %w", context.DeadlineExceeded), "DeadlineExceeded", slog.LevelWarn},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			records := make(chan slog.Record, 2)
			intercept := logStreams(slog.New(recordsHandler{records}))
			info := &grpc.StreamServerInfo{FullMethod: orreryv1.ArenaService_Play_FullMethodName, IsClientStream: true, IsServerStream: true}
			err := intercept(nil, contextStream{ctx: context.Background()}, info, func(any, grpc.ServerStream) error { return tt.err })
			if status.Code(err).String() != tt.code || (tt.err != nil) != (err != nil) {
				t.Errorf("interceptor returned %v, want the handler's %v as %s", err, tt.err, tt.code)
			}
			got := map[string]map[string]string{}
			levels := map[string]slog.Level{}
			for range 2 {
				r := <-records
				attrs := map[string]string{}
				r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.String(); return true })
				got[r.Message], levels[r.Message] = attrs, r.Level
			}
			start, finish := got["started call"], got["finished call"]
			if start == nil || finish == nil {
				t.Fatalf("logged %v, want a started and a finished call", got)
			}
			for _, a := range []map[string]string{start, finish} {
				if a["grpc.service"] != "orrery.v1.ArenaService" || a["grpc.method"] != "Play" || a["grpc.method_type"] != "bidi_stream" {
					t.Errorf("fields %v, want orrery.v1.ArenaService Play bidi_stream", a)
				}
			}
			if finish["grpc.code"] != tt.code || levels["finished call"] != tt.level {
				t.Errorf("finished with code %q at %v, want %q at %v", finish["grpc.code"], levels["finished call"], tt.code, tt.level)
			}
			if _, ok := start["grpc.code"]; ok {
				t.Errorf("the start carries a code: %v", start)
			}
		})
	}
}
