package service

import (
	"context"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"strings"
	"time"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/auth"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/selector"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Authorizer decides whether a call may proceed; it returns the context the handler runs
// with (carrying the caller's identity, if any) or a status error. The ladder supplies one
// that checks bot API keys; nil allows every call.
type Authorizer func(ctx context.Context, method string) (context.Context, error)

// AdminKey is an Authorizer that requires "authorization: bearer <key>" on CreateMatch, so
// only the host creates matches. Seat tokens inside Play authorise the seats themselves.
func AdminKey(key string) Authorizer {
	return func(ctx context.Context, method string) (context.Context, error) {
		if method == orreryv1.ArenaService_AbortMatch_FullMethodName {
			// The admin may abort any match; without the key, the handler asks for the
			// creator's proof (every seat's token) instead. A wrong key is refused.
			got, err := auth.AuthFromMD(ctx, "bearer")
			if err != nil {
				return ctx, nil
			}
			if subtle.ConstantTimeCompare([]byte(got), []byte(key)) != 1 {
				return nil, status.Error(codes.Unauthenticated, "AbortMatch: wrong bearer key")
			}
			return context.WithValue(ctx, adminCaller{}, true), nil
		}
		// Creating a match and training (a batch of environments, opponents searching in
		// process) make the server spend; the rest reads or plays what was created.
		if method != orreryv1.ArenaService_CreateMatch_FullMethodName && method != orreryv1.TrainingService_Train_FullMethodName {
			return ctx, nil
		}
		got, err := auth.AuthFromMD(ctx, "bearer")
		if err != nil {
			return nil, err
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(key)) != 1 {
			return nil, status.Errorf(codes.Unauthenticated, "%s: wrong bearer key", path.Base(method))
		}
		return ctx, nil
	}
}

// GRPCOptions configures the gRPC server around an arena.
type GRPCOptions struct {
	Logger     *slog.Logger
	Registerer prometheus.Registerer // for the gRPC call metrics; nil: none
	Authorize  Authorizer
	// Register adds further services (the ladder) to the server before it starts.
	Register func(*grpc.Server)
	// TLS, if set, serves over TLS with this configuration; nil: plaintext.
	TLS *tls.Config
	// Tracing, if set, traces every call (otelgrpc's stats handler, W3C trace context from
	// the caller): its method, status and timing, never its messages or metadata.
	Tracing trace.TracerProvider
	// MaxRecvBytes is the largest message a call may send (0: gRPC's 4 MiB); a server that
	// hosts bots takes their modules (LadderService.UploadBotModule) in one message.
	MaxRecvBytes int
}

// NewGRPCServer wraps arena in a gRPC server with the interceptor chain (metrics, logging of
// call start and finish, auth, recovery), health and reflection.
func NewGRPCServer(arena *Server, o GRPCOptions) *grpc.Server {
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	authorize := o.Authorize
	if authorize == nil {
		authorize = func(ctx context.Context, _ string) (context.Context, error) { return ctx, nil }
	}
	authFn := func(ctx context.Context) (context.Context, error) {
		method, _ := grpc.Method(ctx)
		if strings.HasPrefix(method, "/grpc.health.") || strings.HasPrefix(method, "/grpc.reflection.") {
			return ctx, nil
		}
		return authorize(ctx, method)
	}
	logOpts := []logging.Option{logging.WithLogOnEvents(logging.StartCall, logging.FinishCall)}
	recoverOpts := []recovery.Option{recovery.WithRecoveryHandler(func(p any) error {
		logger.Error("panic in handler", "panic", p)
		return status.Error(codes.Internal, "internal error; the server recovered and keeps serving")
	})}
	var unary []grpc.UnaryServerInterceptor
	var stream []grpc.StreamServerInterceptor
	if o.Registerer != nil {
		m := grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram())
		o.Registerer.MustRegister(m)
		unary = append(unary, m.UnaryServerInterceptor())
		// Not on the match streams: the interceptor counts every message, by labels looked up
		// per message, which on Play is a cost per decision. The arena's own series count
		// what a Play or Watch stream carries (decisions, rejects, timeouts).
		notMatchStream := func(_ context.Context, c interceptors.CallMeta) bool {
			return c.FullMethod() != orreryv1.ArenaService_Play_FullMethodName && c.FullMethod() != orreryv1.ArenaService_Watch_FullMethodName
		}
		stream = append(stream, selector.StreamServerInterceptor(m.StreamServerInterceptor(), selector.MatchFunc(notMatchStream)))
	}
	unary = append(unary,
		logging.UnaryServerInterceptor(slogAdapter(logger), logOpts...),
		auth.UnaryServerInterceptor(authFn),
		recovery.UnaryServerInterceptor(recoverOpts...))
	stream = append(stream,
		logStreams(logger),
		auth.StreamServerInterceptor(authFn),
		recovery.StreamServerInterceptor(recoverOpts...))
	var creds []grpc.ServerOption
	if o.TLS != nil {
		creds = append(creds, grpc.Creds(credentials.NewTLS(o.TLS)))
	}
	if o.Tracing != nil {
		creds = append(creds, grpc.StatsHandler(otelgrpc.NewServerHandler(otelgrpc.WithTracerProvider(o.Tracing),
			otelgrpc.WithPropagators(propagation.TraceContext{}))))
	}
	if o.MaxRecvBytes > 0 {
		creds = append(creds, grpc.MaxRecvMsgSize(o.MaxRecvBytes))
	}
	srv := grpc.NewServer(append(creds,
		// Set, not left to the library: a larger --max-data-set raises it (limits.MessageBytes).
		grpc.MaxRecvMsgSize(arena.limits.Config().MessageBytes),
		grpc.ForceServerCodecV2(newCodec()),
		grpc.StaticStreamWindowSize(staticStreamWindow),
		grpc.StaticConnWindowSize(staticConnWindow),
		grpc.ChainUnaryInterceptor(unary...),
		grpc.ChainStreamInterceptor(stream...),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 5 * time.Second, PermitWithoutStream: true}),
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 30 * time.Second, Timeout: 10 * time.Second}),
	)...)
	orreryv1.RegisterArenaServiceServer(srv, arena)
	hs := health.NewServer()
	hs.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	hs.SetServingStatus(orreryv1.ArenaService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(srv, hs)
	reflection.Register(srv)
	if o.Register != nil {
		o.Register(srv)
	}
	return srv
}

// The server's receive windows are fixed, which turns off gRPC's bandwidth estimation on its
// side: it pinged the client on data received, so a stream carrying an answer per decision
// cost a PING and its ack (frames, writes, wake-ups) about as often as the answers. What
// clients send the arena is small (joins, answers, requests), so a 64 KiB stream window
// never throttles it; the connection's is larger, for the many streams one client (a ladder,
// a test harness) multiplexes on one connection.
const (
	staticStreamWindow = 64 << 10
	staticConnWindow   = 1 << 20
)

// logStreams logs each stream's start and finish with the fields the unary calls' logging
// interceptor gives them, but keeps nothing for the stream's life and does not wrap it: a
// Play stream lives as long as its match, so go-grpc-middleware's fields and stream wrapper
// (about 1.2 KiB a stream) and its handler's depth (Server.Play) count per live seat. The
// start is logged on a goroutine of its own, so that formatting it does not grow the stack
// of the handler's goroutine, which lasts as long as the stream.
func logStreams(l *slog.Logger) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx, start := ss.Context(), time.Now()
		service, method, _ := strings.Cut(strings.TrimPrefix(info.FullMethod, "/"), "/")
		kind := "bidi_stream"
		switch {
		case !info.IsClientStream:
			kind = "server_stream"
		case !info.IsServerStream:
			kind = "client_stream"
		}
		fields := func(more ...any) []any {
			f := []any{"protocol", "grpc", "grpc.component", "server", "grpc.service", service, "grpc.method", method,
				"grpc.method_type", kind, "grpc.start_time", start.Format(time.RFC3339)}
			if p, ok := peer.FromContext(ctx); ok {
				f = append(f, "peer.address", p.Addr.String())
			}
			return append(f, more...)
		}
		if l.Enabled(ctx, slog.LevelInfo) {
			go l.Log(ctx, slog.LevelInfo, "started call", fields()...)
		}
		err := handler(srv, ss)
		if _, ok := status.FromError(err); !ok && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
			// The client went (a spectator's Watch cancelled): gRPC would send and log a
			// bare context error as Unknown, an ERROR in the server's log.
			err = status.FromContextError(err).Err()
		}
		code := status.Code(err)
		lvl := slog.Level(logging.DefaultServerCodeToLevel(code))
		if l.Enabled(ctx, lvl) {
			more := []any{"grpc.code", code.String()}
			if err != nil {
				more = append(more, "grpc.error", err.Error())
			}
			more = append(more, "grpc.time_ms", fmt.Sprintf("%.3f", float64(time.Since(start))/float64(time.Millisecond)))
			l.Log(ctx, lvl, "finished call", fields(more...)...)
		}
		return err
	}
}

// slogAdapter logs interceptor events with slog: call start and finish only, never payloads.
func slogAdapter(l *slog.Logger) logging.Logger {
	return logging.LoggerFunc(func(ctx context.Context, lvl logging.Level, msg string, fields ...any) {
		l.Log(ctx, slog.Level(lvl), msg, fields...)
	})
}
