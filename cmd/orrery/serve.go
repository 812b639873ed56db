package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/ladder"
	"github.com/orrery/orrery/service/store"
	tour "github.com/orrery/orrery/service/tournament"
)

// arena is a running server: the arena, its gRPC server and listener.
type arena struct {
	srv  *service.Server
	grpc *grpc.Server
	lis  net.Listener
	db   *store.DB
	reg  *prometheus.Registry
	// ladder, if on, seats registered and house bots in rated matches (ladder.go).
	ladder *ladder.Ladder
	// tournaments runs tournaments on the server, with the ladder (tournaments.go).
	tournaments *tour.Service
}

type arenaConfig struct {
	addr     string
	dbPath   string // "" for no persistence
	adminKey string
	logger   *slog.Logger
	ladder   *ladderOptions // nil: no ladder
}

// startArena opens the store, resumes unfinished matches and starts serving gRPC.
func startArena(c arenaConfig) (*arena, error) {
	a := &arena{reg: prometheus.NewRegistry()}
	a.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	cfg := service.Config{Logger: c.logger, Metrics: service.NewMetrics(a.reg)}
	if c.dbPath != "" {
		db, err := store.Open(c.dbPath)
		if err != nil {
			return nil, err
		}
		a.db, cfg.Store = db, db
	}
	if c.ladder != nil {
		if err := a.newLadder(c, &cfg); err != nil {
			a.closeDB()
			return nil, err
		}
		if err := a.newTournaments(c, &cfg); err != nil {
			a.closeDB()
			return nil, err
		}
	}
	srv, err := service.New(cfg)
	if err != nil {
		a.closeDB()
		return nil, err
	}
	a.srv = srv
	var authorize service.Authorizer
	if c.adminKey != "" {
		authorize = service.AdminKey(c.adminKey)
	}
	var register func(*grpc.Server)
	if a.ladder != nil {
		if err := a.ladder.Start(srv); err != nil {
			a.closeServices()
			srv.Close()
			a.closeDB()
			return nil, err
		}
		a.tournaments.Start(srv)
		authorize = a.ladder.Authorizer(authorize)
		register = func(g *grpc.Server) { a.ladder.Register(g); a.tournaments.Register(g) }
	}
	a.grpc = service.NewGRPCServer(srv, service.GRPCOptions{Logger: c.logger, Registerer: a.reg, Authorize: authorize, Register: register})
	a.lis, err = net.Listen("tcp", c.addr)
	if err != nil {
		a.closeServices()
		srv.Close()
		a.closeDB()
		return nil, err
	}
	go a.grpc.Serve(a.lis)
	return a, nil
}

func (a *arena) closeDB() {
	if a.db != nil {
		a.db.Close()
	}
}

// dial connects a client to the arena over loopback.
func (a *arena) dial() (*grpc.ClientConn, error) { return dial(a.lis.Addr().String()) }

// dial connects a client to the arena at addr (plaintext: Orrery serves on loopback or behind
// a proxy that terminates TLS).
func dial(addr string) (*grpc.ClientConn, error) {
	return grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
}

// connect dials server, or, when server is empty, starts an in-process arena configured by
// cfg on a loopback port and dials that. close ends both.
func connect(server string, cfg arenaConfig) (conn *grpc.ClientConn, close func(), err error) {
	stop := func() {}
	if server == "" {
		cfg.addr = "127.0.0.1:0"
		a, err := startArena(cfg)
		if err != nil {
			return nil, nil, err
		}
		stop, server = a.stop, a.lis.Addr().String()
	}
	conn, err = dial(server)
	if err != nil {
		stop()
		return nil, nil, err
	}
	return conn, func() { conn.Close(); stop() }, nil
}

// closeServices stops the tournaments, then the ladder they seat bots through.
func (a *arena) closeServices() {
	if a.tournaments != nil {
		a.tournaments.Close()
	}
	if a.ladder != nil {
		a.ladder.Close()
	}
}

// stop ends streams, stops match clocks and flushes the store.
func (a *arena) stop() {
	a.closeServices()
	a.srv.Close()
	done := make(chan struct{})
	go func() { a.grpc.GracefulStop(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		a.grpc.Stop()
	}
	a.closeDB()
}

// serveOptions are the flags of orrery serve.
type serveOptions struct {
	addr        string
	metricsAddr string
	dbPath      string
	houseN      int
	housePace   time.Duration
	adminKey    string
	jsonLogs    bool
	logLevel    string
	ladderClock struct{ perMove, bank time.Duration }
}

func newServeCmd() *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "run the gRPC arena with metrics, the embedded store and house bots",
		Long: `Run the arena: the gRPC server bots play on, Prometheus metrics, and the store that ` +
			`keeps matches, logs, results, bots and ratings (SQLite, created on first run). ` +
			`Unfinished matches resume after a restart. House bots play rated matches on the ladder, ` +
			`games taking turns, at a watchable pace. Once ready it prints where everything is.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return serve(cmd.Context(), cmd.OutOrStdout(), o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:7070", "gRPC listen address")
	f.StringVar(&o.metricsAddr, "metrics-addr", "127.0.0.1:9090", "Prometheus /metrics listen address (empty: off)")
	f.StringVar(&o.dbPath, "db", "orrery.db", "SQLite database path (matches, logs, results)")
	f.IntVar(&o.houseN, "house", 2, "ladder matches among house bots alone to keep running, taking turns between games (0: none)")
	f.DurationVar(&o.housePace, "house-pace", 25*time.Millisecond, "house bots wait this long before each decision, so their matches can be watched and the database grows slowly")
	f.StringVar(&o.adminKey, "admin-key", "", "if set, CreateMatch requires 'authorization: bearer `KEY`' (default: env ORRERY_ADMIN_KEY)")
	f.BoolVar(&o.jsonLogs, "json-logs", false, "log as JSON lines")
	f.StringVar(&o.logLevel, "log-level", "info", "least severe log lines written: debug, info, warn or error")
	f.DurationVar(&o.ladderClock.perMove, "ladder-per-move", 5*time.Second, "ladder matches: time per move")
	f.DurationVar(&o.ladderClock.bank, "ladder-time-bank", 30*time.Second, "ladder matches: time bank")
	return cmd
}

// logLevel parses --log-level.
func logLevel(s string) (slog.Level, error) {
	var l slog.Level
	switch s {
	case "debug", "info", "warn", "error":
		return l, l.UnmarshalText([]byte(s))
	}
	return l, usagef("--log-level %q: want debug, info, warn or error", s)
}

func serve(ctx context.Context, stdout io.Writer, o serveOptions) error {
	if o.adminKey == "" {
		o.adminKey = os.Getenv("ORRERY_ADMIN_KEY")
	}
	level, err := logLevel(o.logLevel)
	if err != nil {
		return err
	}
	opts := &slog.HandlerOptions{Level: level}
	var handler slog.Handler = slog.NewTextHandler(os.Stderr, opts)
	if o.jsonLogs {
		handler = slog.NewJSONHandler(os.Stderr, opts)
	}
	logger := slog.New(handler)
	// The metrics port is taken before the arena starts, so a port in use is an error
	// that stops serve, not a log line after it claimed to be ready.
	var metricsLis net.Listener
	if o.metricsAddr != "" {
		if metricsLis, err = net.Listen("tcp", o.metricsAddr); err != nil {
			return fmt.Errorf("metrics: %w; pass another --metrics-addr, or --metrics-addr '' for none", err)
		}
		defer metricsLis.Close()
	}
	a, err := startArena(arenaConfig{addr: o.addr, dbPath: o.dbPath, adminKey: o.adminKey, logger: logger,
		ladder: &ladderOptions{houseMatches: o.houseN, housePace: o.housePace,
			clock: &orreryv1.Clock{PerMove: durationpb.New(o.ladderClock.perMove), TimeBank: durationpb.New(o.ladderClock.bank)}}})
	if err != nil {
		return err
	}
	defer a.stop()
	logger.Info("orrery serving", "grpc", a.lis.Addr().String(), "db", o.dbPath)

	if metricsLis != nil {
		mux := http.NewServeMux()
		mux.Handle("/metrics", promhttp.HandlerFor(a.reg, promhttp.HandlerOpts{}))
		hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		go func() {
			if err := hs.Serve(metricsLis); err != nil && !errors.Is(err, http.ErrServerClosed) {
				logger.Error("metrics server", "err", err)
			}
		}()
		defer hs.Close()
	}
	printEndpoints(stdout, endpoints(a.lis.Addr().String(), metricsLis, o.dbPath))
	<-ctx.Done()
	logger.Info("orrery shutting down")
	return nil
}

// endpoint is one line of what serve prints once ready: what it is and where.
type endpoint struct{ what, where string }

// endpoints is where everything a ready server offers is, one line each. A new listener
// (the web page) adds its line here.
func endpoints(grpcAddr string, metrics net.Listener, dbPath string) []endpoint {
	eps := []endpoint{{"gRPC", grpcAddr + " (reflection on: grpcurl -plaintext " + grpcAddr + " list)"}}
	if metrics != nil {
		eps = append(eps, endpoint{"metrics", "http://" + metrics.Addr().String() + "/metrics"})
	}
	db := "none: nothing is kept"
	if dbPath != "" {
		db = dbPath
		if abs, err := filepath.Abs(dbPath); err == nil {
			db = abs
		}
	}
	eps = append(eps,
		endpoint{"database", db},
		endpoint{"bots", "orrery bot register NAME --server " + grpcAddr + " (prints the key for orrery ladder --key); " +
			"a bot in any language: docs/protocol.md"},
	)
	return eps
}

func printEndpoints(w io.Writer, eps []endpoint) {
	fmt.Fprintln(w, "orrery is ready:")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, e := range eps {
		fmt.Fprintf(tw, "  %s\t%s\n", e.what, e.where)
	}
	tw.Flush()
}
