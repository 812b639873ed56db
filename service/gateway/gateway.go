// Package gateway serves the arena to browsers and to anything that speaks HTTP: the JSON API
// generated from the protos by grpc-gateway under /v1/ (routes in proto/orrery/v1/gateway.yaml),
// a WebSocket bridge of Play at /v1/play, and the embedded web app at /. It is a client of the
// gRPC server like any bot, so it sees only what the API shows a spectator or a seat.
package gateway

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/caller"
	"github.com/orrery/orrery/service/episodes"
	"github.com/orrery/orrery/web"
)

// Config is where the web server listens and which arena it serves.
type Config struct {
	// Addr is the HTTP listen address, e.g. 127.0.0.1:8080.
	Addr string
	// Conn is the arena's gRPC server (an in-process or loopback connection). If nil, Arena is
	// dialled.
	Conn grpc.ClientConnInterface
	// Arena is the gRPC server's address, used when Conn is nil.
	Arena  string
	Logger *slog.Logger
	// TLS, if set, serves HTTPS (and WSS) instead of plain HTTP.
	TLS *tls.Config
	// Limits bound bodies, timeouts and connections per address.
	Limits Limits
	// Names are the DNS names the server answers to (--web-host), besides IP addresses and
	// localhost: a request for any other Host is refused, which defeats DNS rebinding.
	Names []string
	// AllowOrigins are other origins (scheme://host[:port]) whose pages may POST and open
	// seats here (--web-allow-origin); the server's own origin always may.
	AllowOrigins []string
	// Vouch, if valid, signs each call's end client (the HTTP peer's host) for the arena,
	// which shares the key and then counts each client's limits apart.
	Vouch caller.Key
}

// Server is a running web server.
type Server struct {
	scheme string
	hs     *http.Server
	lis    net.Listener
	conn   *grpc.ClientConn // dialled here, closed by Close; nil when the caller gave Conn
	done   chan struct{}
}

// Start listens on c.Addr and serves until Close.
func Start(c Config) (*Server, error) {
	s := &Server{scheme: "http", done: make(chan struct{})}
	conn := c.Conn
	if conn == nil {
		cc, err := grpc.NewClient(c.Arena, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return nil, fmt.Errorf("gateway: dial the arena at %s: %w", c.Arena, err)
		}
		s.conn, conn = cc, cc
	}
	logger := c.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	c.Logger = logger
	h, err := Handler(conn, c)
	if err != nil {
		s.closeConn()
		return nil, err
	}
	s.lis, err = net.Listen("tcp", c.Addr)
	if err != nil {
		s.closeConn()
		return nil, err
	}
	lim := c.Limits.WithDefaults()
	s.lis = limitPerAddress(s.lis, lim.ConnsPerAddress)
	if c.TLS != nil {
		s.lis, s.scheme = tls.NewListener(s.lis, c.TLS), "https"
	}
	// Streams (Watch, the Play bridge) lift the read and write timeouts and bound each write
	// instead (streamDeadlines).
	s.hs = &http.Server{Handler: h, ReadHeaderTimeout: lim.ReadHeader, ReadTimeout: lim.Read, WriteTimeout: lim.Write,
		IdleTimeout: lim.Idle, MaxHeaderBytes: 64 << 10}
	go func() {
		defer close(s.done)
		if err := s.hs.Serve(s.lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("web server", "err", err)
		}
	}()
	return s, nil
}

// URL is the web app's address.
func (s *Server) URL() string { return s.scheme + "://" + s.lis.Addr().String() + "/" }

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.lis.Addr().String() }

// Close ends every request, streams included, and waits for the server to stop.
func (s *Server) Close() error {
	err := s.hs.Close()
	<-s.done
	s.closeConn()
	return err
}

func (s *Server) closeConn() {
	if s.conn != nil {
		s.conn.Close()
	}
}

// Marshaler is the API's JSON: the protos' own field names, zero values included so that a
// client need not know protobuf's defaults, enums by name.
var Marshaler = &runtime.JSONPb{
	MarshalOptions:   protojson.MarshalOptions{UseProtoNames: true, EmitUnpopulated: true},
	UnmarshalOptions: protojson.UnmarshalOptions{},
}

// Handler is the whole web server: the API under /v1/, the Play bridge, and the app, behind
// the checks of guard. Of c it uses the logger, limits, names, origins and vouch key.
func Handler(conn grpc.ClientConnInterface, c Config) (http.Handler, error) {
	ctx := context.Background()
	logger := c.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if c.Vouch.Valid() {
		conn = vouching{ClientConnInterface: conn, key: c.Vouch}
	}
	lim := c.Limits.WithDefaults()
	g, err := newGuard(c)
	if err != nil {
		return nil, err
	}
	gw := runtime.NewServeMux(runtime.WithMarshalerOption(runtime.MIMEWildcard, Marshaler),
		runtime.WithIncomingHeaderMatcher(headerMatcher), runtime.WithErrorHandler(g.errorHandler))
	if err := orreryv1.RegisterArenaServiceHandlerClient(ctx, gw, orreryv1.NewArenaServiceClient(conn)); err != nil {
		return nil, err
	}
	if err := orreryv1.RegisterLadderServiceHandlerClient(ctx, gw, orreryv1.NewLadderServiceClient(conn)); err != nil {
		return nil, err
	}
	if err := orreryv1.RegisterTournamentServiceHandlerClient(ctx, gw, orreryv1.NewTournamentServiceClient(conn)); err != nil {
		return nil, err
	}
	if err := orreryv1.RegisterSPRTServiceHandlerClient(ctx, gw, orreryv1.NewSPRTServiceClient(conn)); err != nil {
		return nil, err
	}
	if err := orreryv1.RegisterViewServiceHandlerClient(ctx, gw, orreryv1.NewViewServiceClient(conn)); err != nil {
		return nil, err
	}
	if err := orreryv1.RegisterTrainingServiceHandlerClient(ctx, gw, orreryv1.NewTrainingServiceClient(conn)); err != nil {
		return nil, err
	}
	app, err := fs.Sub(web.Files, ".")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /v1/play", &playBridge{arena: orreryv1.NewArenaServiceClient(conn), logger: logger,
		origins: g.originPatterns(), write: lim.Write})
	// Finished matches as training data (docs/training.md), as Kaggle serves episodes.
	eps := episodes.Handler(episodes.ClientSource(orreryv1.NewArenaServiceClient(conn)))
	mux.Handle("GET /v1/episodes", eps)
	mux.Handle("GET /v1/episodes/{match_id}", eps)
	static, err := staticFiles(app)
	if err != nil {
		return nil, err
	}
	mux.Handle("/v1/", compressJSON(gw))
	mux.Handle("/", static)
	g.next = streamDeadlines(lim.Write, mux)
	return secureHeaders(withClient(g)), nil
}

// secureHeaders keeps the page to its own scripts and its own server: nothing on it can send
// what it shows anywhere else. Inline styles are allowed (the boards colour pieces with them);
// inline scripts are not.
func secureHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}
