package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
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

func serve(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	addr := fs.String("addr", "127.0.0.1:7070", "gRPC listen address")
	metricsAddr := fs.String("metrics-addr", "127.0.0.1:9090", "Prometheus /metrics listen address (empty: off)")
	dbPath := fs.String("db", "orrery.db", "SQLite database path (matches, logs, results)")
	houseN := fs.Int("house", 2, "ladder matches among house bots alone to keep running, taking turns between games (0: none)")
	housePace := fs.Duration("house-pace", 25*time.Millisecond, "house bots wait this long before each decision, so their matches can be watched and the database grows slowly")
	adminKey := fs.String("admin-key", os.Getenv("ORRERY_ADMIN_KEY"), "if set, CreateMatch requires 'authorization: bearer <key>' (env ORRERY_ADMIN_KEY)")
	jsonLogs := fs.Bool("json-logs", false, "log as JSON lines")
	ladderPerMove := fs.Duration("ladder-per-move", 5*time.Second, "ladder matches: time per move")
	ladderBank := fs.Duration("ladder-time-bank", 30*time.Second, "ladder matches: time bank")
	fs.Parse(args)

	var handler slog.Handler = slog.NewTextHandler(os.Stderr, nil)
	if *jsonLogs {
		handler = slog.NewJSONHandler(os.Stderr, nil)
	}
	logger := slog.New(handler)
	a, err := startArena(arenaConfig{addr: *addr, dbPath: *dbPath, adminKey: *adminKey, logger: logger,
		ladder: &ladderOptions{houseMatches: *houseN, housePace: *housePace,
			clock: &orreryv1.Clock{PerMove: durationpb.New(*ladderPerMove), TimeBank: durationpb.New(*ladderBank)}}})
	if err != nil {
		return err
	}
	defer a.stop()
	logger.Info("orrery serving", "grpc", a.lis.Addr().String(), "db", *dbPath)

	if *metricsAddr != "" {
		mux := http.NewServeMux()
		mux.Handle("/metrics", promhttp.HandlerFor(a.reg, promhttp.HandlerOpts{}))
		hs := &http.Server{Addr: *metricsAddr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		go func() {
			if err := hs.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
				logger.Error("metrics server", "err", err)
			}
		}()
		defer hs.Close()
		logger.Info("metrics serving", "url", fmt.Sprintf("http://%s/metrics", *metricsAddr))
	}
	<-ctx.Done()
	logger.Info("orrery shutting down")
	return nil
}
