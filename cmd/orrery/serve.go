package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots/builtin"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/caller"
	"github.com/orrery/orrery/service/datasets"
	"github.com/orrery/orrery/service/gateway"
	"github.com/orrery/orrery/service/hosted"
	"github.com/orrery/orrery/service/houseseats"
	"github.com/orrery/orrery/service/ladder"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/retention"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/strength"
	tour "github.com/orrery/orrery/service/tournament"
	"github.com/orrery/orrery/service/tracing"
	"github.com/orrery/orrery/service/training"
	"github.com/orrery/orrery/service/view"
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
	// strength runs SPRT strength tests on the server, with the ladder (tournaments.go); nil
	// on a cluster's node.
	strength *strength.Service
	// stopRetention stops the removal of old matches, if on.
	stopRetention func()
	// pool is a cluster node's pgx pool for the tournaments' job queue (tournaments.go).
	pool *pgxpool.Pool
	// houseSeats plays built-in bots in the seats a CreateMatch gives them.
	houseSeats *houseseats.Seats
	// hosted runs the ladder's hosted bots (service/hosted), if the ladder is on.
	hosted *hosted.Runtime
}

type arenaConfig struct {
	addr     string
	dbPath   string // "" for no persistence
	adminKey string
	logger   *slog.Logger
	ladder   *ladderOptions // nil: no ladder
	limits   limits.Config
	dataDir  string               // data sets a client may name; "": inline only
	retain   time.Duration        // finished matches older than this are removed; 0: kept
	tls      *tls.Config          // nil: plaintext
	node     *service.Node        // nil: the only server on its database
	tracing  trace.TracerProvider // nil: no traces
	gateway  caller.Key           // shared with the server's own web gateway, which vouches for its HTTP clients
}

// startArena opens the store, resumes unfinished matches and starts serving gRPC.
func startArena(c arenaConfig) (*arena, error) {
	a := &arena{reg: prometheus.NewRegistry()}
	a.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	cfg := service.Config{Logger: c.logger, Metrics: service.NewMetrics(a.reg), Limits: c.limits, Node: c.node, Tracing: c.tracing, Gateway: c.gateway,
		DataSets:   datasets.Resolver{Dir: c.dataDir, MaxBytes: int64(c.limits.WithDefaults().DataSetBytes)},
		HoldClocks: true} // resumed matches' clocks start once it serves (StartClocks below)
	// Built-in bots take the seats a CreateMatch gives them: a person's opponents on the page.
	a.houseSeats = houseseats.New(func(game, name string, seed uint64) (ladder.Player, error) { return builtin.New(game, name, seed) },
		builtin.Names, c.logger)
	cfg.HouseSeats = a.houseSeats
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
	a.houseSeats.Start(srv)
	var authorize service.Authorizer
	if c.adminKey != "" {
		authorize = service.AdminKey(c.adminKey)
	}
	// ViewService shows finished matches at any ply, as any seat saw them (the web page's
	// replays); TrainingService steps batches of environments for trainers (docs/training.md).
	views, trainer := view.New(srv), training.New(training.Config{})
	register := func(g *grpc.Server) { views.Register(g); trainer.Register(g) }
	if a.ladder != nil {
		if err := a.ladder.Start(srv); err != nil {
			a.closeServices()
			srv.Close()
			a.closeDB()
			return nil, err
		}
		if err := a.tournaments.Start(srv); err != nil {
			a.closeServices()
			srv.Close()
			a.closeDB()
			return nil, err
		}
		if a.strength != nil {
			if err := a.strength.Start(srv); err != nil {
				a.closeServices()
				srv.Close()
				a.closeDB()
				return nil, err
			}
		}
		a.ladder.ServeMovedCalls(a.tournaments)
		views := register
		authorize = a.ladder.Authorizer(authorize)
		register = func(g *grpc.Server) {
			views(g)
			a.ladder.Register(g)
			a.tournaments.Register(g)
			if a.strength != nil {
				a.strength.Register(g)
			}
		}
	}
	var maxRecv int
	if a.hosted != nil {
		maxRecv = a.hosted.Limits().ModuleBytes + 1<<20 // a module and its request
	}
	a.grpc = service.NewGRPCServer(srv, service.GRPCOptions{Logger: c.logger, Registerer: a.reg, Authorize: authorize, Register: register, TLS: c.tls, MaxRecvBytes: maxRecv, Tracing: c.tracing})
	a.lis, err = net.Listen("tcp", c.addr)
	if err != nil {
		a.closeServices()
		srv.Close()
		a.closeDB()
		return nil, err
	}
	go a.grpc.Serve(a.lis)
	srv.StartClocks()
	if c.retain > 0 && a.db != nil {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			retention.Run(ctx, a.db, retention.Config{Keep: c.retain, Logger: c.logger})
		}()
		a.stopRetention = func() { cancel(); <-done }
	}
	return a, nil
}

func (a *arena) closeDB() {
	if a.pool != nil {
		a.pool.Close()
	}
	if a.db != nil {
		a.db.Close()
	}
}

// dial connects a client to the arena over loopback.
func (a *arena) dial() (*grpc.ClientConn, error) { return dial(a.lis.Addr().String()) }

// dialSelf connects the server's own web gateway to its gRPC listener: over TLS when it serves
// TLS, trusting exactly its own certificate under the first name the certificate gives.
func (a *arena) dialSelf(server *tls.Config) (*grpc.ClientConn, error) {
	if server == nil || len(server.Certificates) == 0 {
		return grpc.NewClient(a.lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	}
	leaf, err := x509.ParseCertificate(server.Certificates[0].Certificate[0])
	if err != nil {
		return nil, fmt.Errorf("TLS: %w", err)
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: x509.NewCertPool()}
	cfg.RootCAs.AddCert(leaf)
	switch {
	case len(leaf.DNSNames) > 0:
		cfg.ServerName = leaf.DNSNames[0]
	case len(leaf.IPAddresses) > 0:
		cfg.ServerName = leaf.IPAddresses[0].String()
	}
	return grpc.NewClient(a.lis.Addr().String(), grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
}

// clientTLS is how client commands reach a server: the root's --tls and --tls-ca.
type clientTLS struct {
	on bool
	ca string // a PEM file of the CAs to trust; "": the system's
}

// clientTransport is set from the root command's flags before any command runs.
var clientTransport clientTLS

// credentials is the transport of a client connection.
func (c clientTLS) credentials() (credentials.TransportCredentials, error) {
	if !c.on && c.ca == "" {
		return insecure.NewCredentials(), nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.ca != "" {
		pem, err := os.ReadFile(c.ca)
		if err != nil {
			return nil, fmt.Errorf("--tls-ca: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--tls-ca %s: no PEM certificate in it", c.ca)
		}
	}
	return credentials.NewTLS(cfg), nil
}

// dial connects a client to the arena at addr: over TLS with --tls (or --tls-ca), else
// plaintext (a server on loopback, or behind a proxy that terminates TLS).
func dial(addr string) (*grpc.ClientConn, error) {
	creds, err := clientTransport.credentials()
	if err != nil {
		return nil, err
	}
	return grpc.NewClient(addr, grpc.WithTransportCredentials(creds))
}

// serverTLS loads serve's --tls-cert and --tls-key; nil when neither is set.
func serverTLS(cert, key string) (*tls.Config, error) {
	if cert == "" && key == "" {
		return nil, nil
	}
	if cert == "" || key == "" {
		return nil, usagef("--tls-cert and --tls-key go together")
	}
	pair, err := tls.LoadX509KeyPair(cert, key)
	if err != nil {
		return nil, fmt.Errorf("TLS: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil
}

// connect dials server, or, when server is empty, starts an in-process arena configured by
// cfg on a loopback port and dials that. close ends both.
func connect(server string, cfg arenaConfig) (conn *grpc.ClientConn, close func(), err error) {
	stop := func() {}
	dialer := dial
	if server == "" {
		cfg.addr = "127.0.0.1:0"
		// Its own arena has one caller, this command: a tournament creates as fast as it plays.
		if cfg.limits.CreatesPerMinute == 0 {
			cfg.limits.CreatesPerMinute = math.MaxInt32
		}
		if cfg.limits.LivePerCaller == 0 {
			cfg.limits.LivePerCaller = math.MaxInt32
		}
		a, err := startArena(cfg)
		if err != nil {
			return nil, nil, err
		}
		stop, server = a.stop, a.lis.Addr().String()
		dialer = func(addr string) (*grpc.ClientConn, error) { // its own arena, on loopback
			return grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		}
	}
	conn, err = dialer(server)
	if err != nil {
		stop()
		return nil, nil, err
	}
	return conn, func() { conn.Close(); stop() }, nil
}

// closeServices stops the tournaments and strength tests, then the ladder they seat bots
// through.
func (a *arena) closeServices() {
	if a.houseSeats != nil {
		a.houseSeats.Close()
	}
	if a.tournaments != nil {
		a.tournaments.Close()
	}
	if a.strength != nil {
		a.strength.Close()
	}
	if a.ladder != nil {
		a.ladder.Close()
	}
	if a.hosted != nil {
		a.hosted.Close(context.Background())
	}
}

// stop ends streams, stops match clocks and flushes the store.
func (a *arena) stop() {
	if a.stopRetention != nil {
		a.stopRetention()
	}
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
	addr         string
	metricsAddr  string
	webAddr      string
	dbPath       string
	houseN       int
	housePace    time.Duration
	adminKey     string
	jsonLogs     bool
	logLevel     string
	adminFile    string
	dataDir      string
	otlpEndpoint string
	retain       string
	limits       limits.Config
	tlsCert      string
	tlsKey       string
	ladderClock  struct{ perMove, bank time.Duration }
	fillAfter    time.Duration
	nodeID       string
	advertise    string
	web          webOptions
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
	f.StringVar(&o.webAddr, "web-addr", "127.0.0.1:8080", "the web page and its HTTP/JSON API (docs/http.md) listen address (empty: off)")
	f.StringVar(&o.dbPath, "db", "orrery.db", "database of matches, logs and results: a SQLite path (or sqlite:PATH), or postgres://USER:PASS@HOST/DB")
	f.IntVar(&o.houseN, "house", 2, "ladder matches among house bots alone to keep running, taking turns between games (0: none)")
	f.DurationVar(&o.housePace, "house-pace", 25*time.Millisecond, "house bots wait this long before each decision, so their matches can be watched and the database grows slowly")
	f.StringVar(&o.adminKey, "admin-key", "", "if set, CreateMatch requires 'authorization: bearer `KEY`' (default: env ORRERY_ADMIN_KEY)")
	f.BoolVar(&o.jsonLogs, "json-logs", false, "log as JSON lines")
	f.StringVar(&o.otlpEndpoint, "otlp-endpoint", "", "send OpenTelemetry traces to the OTLP/gRPC collector at `URL` (http://HOST:4317, https://..., or HOST:PORT; default: env "+tracing.EnvEndpoint+", else off)")
	f.StringVar(&o.logLevel, "log-level", "info", "least severe log lines written: debug, info, warn or error")
	f.DurationVar(&o.ladderClock.perMove, "ladder-per-move", 5*time.Second, "ladder matches: time per move")
	f.DurationVar(&o.ladderClock.bank, "ladder-time-bank", 30*time.Second, "ladder matches: time bank")
	f.DurationVar(&o.fillAfter, "ladder-fill-after", 5*time.Second, "house bots complete the match of a registered bot that has waited this long for opponents")
	f.StringVar(&o.adminFile, "admin-key-file", "", "read the admin key from `FILE` (kept out of the process list)")
	f.StringVar(&o.dataDir, "data-dir", "", "data sets clients may name, from `DIR` (DIR/NAME.json, at most --max-data-set bytes); empty: inline JSON only")
	f.StringVar(&o.tlsCert, "tls-cert", "", "serve over TLS with this certificate `FILE` (PEM; with --tls-key)")
	f.StringVar(&o.tlsKey, "tls-key", "", "the TLS certificate's private key `FILE` (PEM)")
	f.StringVar(&o.nodeID, "node-id", "", "run as node `ID` of a cluster sharing the --db PostgreSQL database (matches leased per node, taken over when a node dies; one node at a time makes the ladder's matches, tournaments are a job queue)")
	f.StringVar(&o.advertise, "advertise", "", "with --node-id: the gRPC address (`HOST:PORT`) the other nodes and bots reach this node at (default: --addr)")
	f.StringVar(&o.retain, "retain", "0", "remove finished matches older than `AGE`, e.g. 90d or 36h (0: keep all)")
	f.IntVar(&o.limits.LiveMatches, "max-matches", limits.DefaultLiveMatches, "matches running at once")
	f.IntVar(&o.limits.CreatesPerMinute, "max-creates-per-minute", limits.DefaultCreatesPerMinute, "matches one caller (address) may create per minute")
	f.IntVar(&o.limits.SpectatorsPerMatch, "max-spectators", limits.DefaultSpectatorsPerMatch, "Watch streams open on one match")
	f.IntVar(&o.limits.SeatNameBytes, "max-seat-name", limits.DefaultSeatNameBytes, "longest seat name, in bytes")
	f.IntVar(&o.limits.OptionValueBytes, "max-option-value", limits.DefaultOptionValueBytes, "longest option value, in bytes (data sets excepted)")
	f.IntVar(&o.limits.DataSetBytes, "max-data-set", limits.DefaultDataSetBytes, "largest data set, inline or named, in bytes")
	f.IntVar(&o.limits.StreamQueue, "max-stream-queue", limits.DefaultStreamQueue, "replies queued for a Play stream whose bot does not read; past it the stream is closed (the seat is kept)")
	f.DurationVar(&o.limits.Unjoined, "unjoined-expiry", limits.DefaultUnjoined, "a match no seat joins in this time ends as aborted")
	addLimitFlags(f, &o.limits)
	o.web.addFlags(f)
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
	if o.adminKey == "" && o.adminFile != "" {
		b, err := os.ReadFile(o.adminFile)
		if err != nil {
			return fmt.Errorf("--admin-key-file: %w", err)
		}
		if o.adminKey = strings.TrimSpace(string(b)); o.adminKey == "" {
			return usagef("--admin-key-file %s is empty", o.adminFile)
		}
	}
	if o.adminKey == "" {
		o.adminKey = os.Getenv("ORRERY_ADMIN_KEY")
	}
	retain, err := retention.ParseAge(o.retain)
	if err != nil {
		return usagef("--retain: %v", err)
	}
	tlsConf, err := serverTLS(o.tlsCert, o.tlsKey)
	if err != nil {
		return err
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
	node, err := nodeOf(o)
	if err != nil {
		return err
	}
	if node != nil && tlsConf != nil {
		// Nodes relay calls to each other over TLS, trusting the root's --tls-ca (or the
		// system's roots): each node's certificate must name its --advertise host.
		if node.Creds, err = (clientTLS{on: true, ca: clientTransport.ca}).credentials(); err != nil {
			return err
		}
	}
	ladder := &ladderOptions{houseMatches: o.houseN, housePace: o.housePace, fillAfter: o.fillAfter,
		clock: &orreryv1.Clock{PerMove: durationpb.New(o.ladderClock.perMove), TimeBank: durationpb.New(o.ladderClock.bank)}}
	vouch := caller.NewKey() // this process's own: only its web gateway vouches with it
	c := arenaConfig{addr: o.addr, dbPath: o.dbPath, adminKey: o.adminKey, logger: logger,
		ladder: ladder, limits: o.limits, dataDir: o.dataDir, retain: retain, tls: tlsConf, node: node, gateway: vouch}
	tp, stopTracing, err := startTracing(ctx, o.otlpEndpoint, o.nodeID, logger)
	if err != nil {
		return err
	}
	// Deferred before the arena's stop, so it runs after it: the spans the stop ends (each
	// match's) are flushed too.
	defer stopTracing()
	if tp != nil {
		c.tracing = tp
	}
	a, err := startArena(c)
	if err != nil {
		return err
	}
	defer a.stop()
	logger.Info("orrery serving", "grpc", a.lis.Addr().String(), "db", store.Describe(o.dbPath))

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
	webURL := ""
	if o.webAddr != "" {
		conn, err := a.dialSelf(tlsConf)
		if err != nil {
			return err
		}
		defer conn.Close()
		web, err := gateway.Start(o.web.config(o.webAddr, conn, logger, tlsConf, vouch))
		if err != nil {
			return fmt.Errorf("web: %w; pass another --web-addr, or --web-addr '' for none", err)
		}
		defer web.Close()
		webURL = web.URL()
	}
	printEndpoints(stdout, endpoints(a.lis.Addr().String(), tlsConf != nil, metricsLis, webURL, o.dbPath, node))
	<-ctx.Done()
	logger.Info("orrery shutting down")
	return nil
}

// endpoint is one line of what serve prints once ready: what it is and where.
type endpoint struct{ what, where string }

// endpoints is where everything a ready server offers is, one line each. A new listener
// (the web page) adds its line here.
func endpoints(grpcAddr string, tls bool, metrics net.Listener, webURL, dbPath string, node *service.Node) []endpoint {
	eps := []endpoint{{"gRPC", grpcAddr + " (reflection on: grpcurl -plaintext " + grpcAddr + " list)"}}
	if tls {
		eps[0].where = grpcAddr + " over TLS (reflection on: grpcurl " + grpcAddr + " list; clients pass --tls)"
	}
	if webURL != "" {
		eps = append(eps, endpoint{"web", webURL + " (the arena in a browser; its JSON API: docs/http.md)"})
	}
	if metrics != nil {
		eps = append(eps, endpoint{"metrics", "http://" + metrics.Addr().String() + "/metrics"})
	}
	db := "none: nothing is kept"
	if dbPath != "" {
		db = store.Describe(dbPath) // a PostgreSQL URL without its password
	}
	eps = append(eps, endpoint{"database", db})
	if node != nil {
		eps = append(eps, endpoint{"cluster", "node " + node.ID + ", reached by the other nodes at " + node.Addr +
			" (matches leased per node; bots may connect to any node: docs/deploy.md)"})
	}
	eps = append(eps,
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

// nodeOf is the cluster node --node-id and --advertise describe, nil without --node-id.
func nodeOf(o serveOptions) (*service.Node, error) {
	if o.nodeID == "" {
		if o.advertise != "" {
			return nil, errors.New("--advertise needs --node-id")
		}
		return nil, nil
	}
	if !store.IsPostgresURL(o.dbPath) {
		return nil, fmt.Errorf("--node-id %s: the nodes of a cluster share a PostgreSQL database; --db must be a postgres:// URL", o.nodeID)
	}
	addr := o.advertise
	if addr == "" {
		addr = o.addr
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--advertise %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return nil, fmt.Errorf("--node-id %s: %s is not an address other nodes can reach; pass --advertise HOST:PORT", o.nodeID, addr)
	}
	return &service.Node{ID: o.nodeID, Addr: addr}, nil
}
