package tournament

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/auth"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Errors become gRPC codes here, at the boundary.
var (
	errNeedAdmin  = status.Error(codes.PermissionDenied, "this call needs the server's admin key")
	errNotStarted = status.Error(codes.Unavailable, "the tournaments are not running yet; try again shortly")
	errClosing    = status.Error(codes.Unavailable, "the server is shutting down; the tournament resumes when it restarts")
)

// Limits of one CreateTournament.
const (
	maxGames    = 100000
	maxParallel = 64
	maxEntrants = 256
)

// Register adds the TournamentService to a gRPC server.
func (s *Service) Register(g *grpc.Server) { orreryv1.RegisterTournamentServiceServer(g, s) }

func (s *Service) needAdmin(ctx context.Context) error {
	if s.cfg.AdminKey == "" {
		return nil
	}
	key, err := auth.AuthFromMD(ctx, "bearer")
	if err != nil || subtle.ConstantTimeCompare([]byte(key), []byte(s.cfg.AdminKey)) != 1 {
		return errNeedAdmin
	}
	return nil
}

// CreateTournament checks, stores and starts a tournament.
func (s *Service) CreateTournament(ctx context.Context, req *orreryv1.CreateTournamentRequest) (*orreryv1.CreateTournamentResponse, error) {
	if err := s.needAdmin(ctx); err != nil {
		return nil, err
	}
	if s.arena == nil {
		return nil, errNotStarted
	}
	spec, entrants, err := s.normalise(req)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	r := newRun(newTournamentID(), spec, entrants, s.now())
	r.drawFirst()
	if len(r.slots) == 0 {
		return nil, status.Error(codes.InvalidArgument, "the schedule has no match")
	}
	if s.cfg.AdminKey == "" { // an open server: anyone may run one, within a budget
		if err := s.arena.ScheduleTournament(ctx, r.total); err != nil {
			return nil, err
		}
	}
	if err := s.db.insertRun(ctx, r); err != nil {
		return nil, status.Errorf(codes.Internal, "store the tournament: %v", err)
	}
	if s.jobs != nil {
		// Stored: if queuing its first jobs fails, the next sweep of any node queues them.
		if err := s.advance(ctx, r.id); err != nil {
			s.log.Error("tournament: queue the first matches", "tournament", r.id, "err", err)
		}
		s.log.Info("tournament created", "tournament", r.id, "game", spec.GetGame(), "entrants", len(entrants), "matches", r.total)
		return &orreryv1.CreateTournamentResponse{Tournament: r.protoLocked(true)}, nil
	}
	s.mu.Lock()
	if s.ctx.Err() != nil {
		s.mu.Unlock()
		return nil, errClosing // stored: it starts with the next server
	}
	s.runs[r.id] = r
	t := r.protoLocked(true)
	s.wg.Add(1)
	s.mu.Unlock()
	go s.drive(r)
	s.log.Info("tournament created", "tournament", r.id, "game", spec.GetGame(), "entrants", len(entrants), "matches", r.total)
	return &orreryv1.CreateTournamentResponse{Tournament: t}, nil
}

// normalise checks a request and fills in its defaults: the stored spec.
func (s *Service) normalise(req *orreryv1.CreateTournamentRequest) (*orreryv1.CreateTournamentRequest, []entrant, error) {
	spec := proto.Clone(req).(*orreryv1.CreateTournamentRequest)
	if len(spec.GetEntrants()) < 2 || len(spec.GetEntrants()) > maxEntrants {
		return nil, nil, fmt.Errorf("%d entrants: want 2 to %d", len(spec.GetEntrants()), maxEntrants)
	}
	_, seats, err := checkGame(spec.GetGame(), int(spec.GetSeats()), len(spec.GetEntrants()), spec.GetOptions())
	if err != nil {
		return nil, nil, err
	}
	spec.Seats = int32(seats)
	entrants, err := s.entrantsFor(spec.GetGame(), spec.GetEntrants())
	if err != nil {
		return nil, nil, err
	}
	switch spec.GetFormat() {
	case orreryv1.TournamentFormat_TOURNAMENT_FORMAT_UNSPECIFIED:
		spec.Format = orreryv1.TournamentFormat_TOURNAMENT_FORMAT_ROUND_ROBIN
	case orreryv1.TournamentFormat_TOURNAMENT_FORMAT_ROUND_ROBIN, orreryv1.TournamentFormat_TOURNAMENT_FORMAT_SWISS:
	default:
		return nil, nil, fmt.Errorf("format %d: want round robin or swiss", spec.GetFormat())
	}
	if spec.Games == 0 {
		spec.Games = 100
	}
	if spec.Parallel == 0 {
		spec.Parallel = 4
	}
	switch {
	case spec.GetGames() < 1 || spec.GetGames() > maxGames:
		return nil, nil, fmt.Errorf("games %d out of range 1..%d", spec.GetGames(), maxGames)
	case spec.GetParallel() < 1 || spec.GetParallel() > maxParallel:
		return nil, nil, fmt.Errorf("parallel %d out of range 1..%d", spec.GetParallel(), maxParallel)
	case orreryv1.TimeoutPolicy_name[int32(spec.GetTimeoutPolicy())] == "":
		return nil, nil, fmt.Errorf("unknown timeout policy %d", spec.GetTimeoutPolicy())
	case orreryv1.AbsentPolicy_name[int32(spec.GetAbsent())] == "":
		return nil, nil, fmt.Errorf("unknown absent policy %d", spec.GetAbsent())
	}
	if err := checkClock(spec.GetClock()); err != nil {
		return nil, nil, err
	}
	if spec.Seed == nil {
		seed := randomSeed()
		spec.Seed = &seed
	}
	return spec, entrants, nil
}

// checkClock refuses a time control the arena would refuse, before anything is stored.
func checkClock(c *orreryv1.Clock) error {
	for _, d := range []struct {
		name string
		set  bool
		d    time.Duration
	}{
		{"per_move", c.GetPerMove() != nil, c.GetPerMove().AsDuration()},
		{"increment", c.GetIncrement() != nil, c.GetIncrement().AsDuration()},
		{"time_bank", c.GetTimeBank() != nil, c.GetTimeBank().AsDuration()},
	} {
		if d.set && (d.d < 0 || d.d > 24*time.Hour) {
			return fmt.Errorf("clock.%s %v out of range 0..24h", d.name, d.d)
		}
	}
	if c.GetPerMove() != nil && c.GetPerMove().AsDuration() == 0 {
		return errors.New("clock.per_move must be positive")
	}
	return nil
}

// GetTournament is a tournament, its schedule so far and its standings.
func (s *Service) GetTournament(ctx context.Context, req *orreryv1.GetTournamentRequest) (*orreryv1.GetTournamentResponse, error) {
	t, err := s.tournament(ctx, req.GetTournamentId(), true)
	if err != nil {
		return nil, err
	}
	return &orreryv1.GetTournamentResponse{Tournament: t}, nil
}

// tournament finds id: running, finished or recorded.
func (s *Service) tournament(ctx context.Context, id string, matches bool) (*orreryv1.Tournament, error) {
	s.mu.Lock()
	if r := s.runs[id]; r != nil {
		defer s.mu.Unlock()
		return r.protoLocked(matches), nil
	}
	s.mu.Unlock()
	r, err := s.db.loadRun(ctx, id)
	if err == nil {
		// Finished, or on a cluster where the database holds the running ones too.
		r.running = r.runningFromSlots()
		return r.protoLocked(matches), nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, status.Errorf(codes.Internal, "tournament %s: %v", engine.Clip(id, 64), err)
	}
	t, err := s.db.tournament(ctx, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, status.Errorf(codes.NotFound, "no tournament %q", engine.Clip(id, 64))
	}
	if err != nil {
		return nil, status.Errorf(codes.Internal, "tournament %s: %v", engine.Clip(id, 64), err)
	}
	if !matches {
		t.MatchIds = nil
	}
	return t, nil
}

// ListTournaments pages the tournaments, newest first.
func (s *Service) ListTournaments(ctx context.Context, req *orreryv1.ListTournamentsRequest) (*orreryv1.ListTournamentsResponse, error) {
	size := int(req.GetPageSize())
	if size < 0 || size > 500 {
		return nil, status.Errorf(codes.InvalidArgument, "page_size %d out of range 0..500", size)
	}
	if size == 0 {
		size = 50
	}
	offset := 0
	if tok := req.GetPageToken(); tok != "" {
		n, err := strconv.Atoi(tok)
		if err != nil || n < 0 {
			return nil, status.Errorf(codes.InvalidArgument, "page_token %q is not one ListTournaments gave", tok)
		}
		offset = n
	}
	rows, err := s.db.list(ctx, offset, size+1)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "list tournaments: %v", err)
	}
	resp := &orreryv1.ListTournamentsResponse{}
	if len(rows) > size {
		rows = rows[:size]
		resp.NextPageToken = strconv.Itoa(offset + size)
	}
	for _, row := range rows {
		t, err := s.tournament(ctx, row.id, false)
		if err != nil {
			return nil, err
		}
		resp.Tournaments = append(resp.Tournaments, t)
	}
	return resp, nil
}

// WatchTournament sends the tournament now and after every change until it finishes.
func (s *Service) WatchTournament(req *orreryv1.WatchTournamentRequest, stream grpc.ServerStreamingServer[orreryv1.WatchTournamentResponse]) error {
	ctx := stream.Context()
	s.mu.Lock()
	r := s.runs[req.GetTournamentId()]
	s.mu.Unlock()
	if r == nil && s.jobs != nil {
		return s.watchCluster(ctx, req.GetTournamentId(), func(t *orreryv1.Tournament) error {
			return stream.Send(&orreryv1.WatchTournamentResponse{Tournament: t})
		})
	}
	if r == nil { // finished, recorded or unknown: one message
		t, err := s.tournament(ctx, req.GetTournamentId(), false)
		if err != nil {
			return err
		}
		return stream.Send(&orreryv1.WatchTournamentResponse{Tournament: t})
	}
	for {
		changed := r.changes() // before the snapshot, so no change is missed
		s.mu.Lock()
		t := r.protoLocked(false)
		s.mu.Unlock()
		if err := stream.Send(&orreryv1.WatchTournamentResponse{Tournament: t}); err != nil {
			return err
		}
		if t.GetStatus() == orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ctx.Done():
			return errClosing
		case <-changed:
		}
	}
}
