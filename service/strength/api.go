package strength

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"

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
	errNotStarted = status.Error(codes.Unavailable, "the strength tests are not running yet; try again shortly")
	errClosing    = status.Error(codes.Unavailable, "the server is shutting down; a running test resumes when it restarts")
)

// Limits of one StartSPRT.
const (
	maxGames        = 1000000
	defaultGames    = 10000
	maxParallel     = 64
	defaultParallel = 2
	defaultPage     = 50
	maxPage         = 500
)

// Register adds the SPRTService to a gRPC server.
func (s *Service) Register(g *grpc.Server) { orreryv1.RegisterSPRTServiceServer(g, s) }

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

// StartSPRT checks, stores and starts a test.
func (s *Service) StartSPRT(ctx context.Context, req *orreryv1.StartSPRTRequest) (*orreryv1.StartSPRTResponse, error) {
	if err := s.needAdmin(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	started := s.arena != nil
	s.mu.Unlock()
	if !started {
		return nil, errNotStarted
	}
	spec, err := s.normalise(ctx, req)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	t := newTest(newTestID(), spec, s.now())
	if err := s.db.insert(ctx, t); err != nil {
		return nil, status.Errorf(codes.Internal, "store the test: %v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		return nil, errClosing // stored: it starts with the next server
	}
	s.tests[t.id] = t
	s.launchLocked(t)
	s.log.Info("sprt started", "sprt", t.id, "game", spec.GetGame(), "candidate", spec.GetCandidate(), "baseline", spec.GetBaseline())
	return &orreryv1.StartSPRTResponse{Sprt: t.protoLocked(false)}, nil
}

// GetSPRT is a test with its pairs.
func (s *Service) GetSPRT(ctx context.Context, req *orreryv1.GetSPRTRequest) (*orreryv1.GetSPRTResponse, error) {
	t, err := s.get(ctx, req.GetSprtId(), true)
	if err != nil {
		return nil, err
	}
	return &orreryv1.GetSPRTResponse{Sprt: t}, nil
}

// get is a running test from memory, or any test from the store.
func (s *Service) get(ctx context.Context, id string, pairs bool) (*orreryv1.SPRT, error) {
	if id == "" {
		return nil, status.Error(codes.InvalidArgument, "sprt_id is required")
	}
	s.mu.Lock()
	if t := s.tests[id]; t != nil {
		defer s.mu.Unlock()
		return t.protoLocked(pairs), nil
	}
	s.mu.Unlock()
	t, err := s.db.load(ctx, id)
	switch {
	case errors.Is(err, errNoTest):
		return nil, status.Errorf(codes.NotFound, "no strength test %q", id)
	case err != nil:
		return nil, status.Errorf(codes.Internal, "load test %s: %v", id, err)
	}
	// Not Service.mu's: a test loaded for this call alone.
	return t.protoLocked(pairs), nil
}

// ListSPRTs lists tests, newest first, without their pairs.
func (s *Service) ListSPRTs(ctx context.Context, req *orreryv1.ListSPRTsRequest) (*orreryv1.ListSPRTsResponse, error) {
	size := int(req.GetPageSize())
	switch {
	case size < 0 || size > maxPage:
		return nil, status.Errorf(codes.InvalidArgument, "page_size %d: want 0 to %d", size, maxPage)
	case size == 0:
		size = defaultPage
	}
	offset := 0
	if tok := req.GetPageToken(); tok != "" {
		n, err := strconv.Atoi(tok)
		if err != nil || n < 0 {
			return nil, status.Errorf(codes.InvalidArgument, "page_token %q is not one ListSPRTs gave", tok)
		}
		offset = n
	}
	ids, err := s.db.page(ctx, offset, size+1)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "list tests: %v", err)
	}
	resp := &orreryv1.ListSPRTsResponse{}
	if len(ids) > size {
		ids, resp.NextPageToken = ids[:size], strconv.Itoa(offset+size)
	}
	for _, id := range ids {
		t, err := s.get(ctx, id, false)
		if err != nil {
			return nil, err
		}
		resp.Sprts = append(resp.Sprts, t)
	}
	return resp, nil
}

// WatchSPRT sends the test now and after every counted pair, until it has finished.
func (s *Service) WatchSPRT(req *orreryv1.WatchSPRTRequest, stream grpc.ServerStreamingServer[orreryv1.WatchSPRTResponse]) error {
	ctx := stream.Context()
	s.mu.Lock()
	t := s.tests[req.GetSprtId()]
	s.mu.Unlock()
	if t == nil { // finished or unknown: one message
		out, err := s.get(ctx, req.GetSprtId(), false)
		if err != nil {
			return err
		}
		return stream.Send(&orreryv1.WatchSPRTResponse{Sprt: out})
	}
	for {
		changed := t.changes() // before the snapshot, so no change is missed
		s.mu.Lock()
		out := t.protoLocked(false)
		s.mu.Unlock()
		if err := stream.Send(&orreryv1.WatchSPRTResponse{Sprt: out}); err != nil {
			return err
		}
		if out.GetStatus() != orreryv1.SPRTStatus_SPRT_STATUS_RUNNING {
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

// StopSPRT ends a running test undecided.
func (s *Service) StopSPRT(ctx context.Context, req *orreryv1.StopSPRTRequest) (*orreryv1.StopSPRTResponse, error) {
	if err := s.needAdmin(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	t := s.tests[req.GetSprtId()]
	if t != nil {
		t.stopping = true
		t.cancel()
	}
	s.mu.Unlock()
	if t == nil {
		if _, err := s.get(ctx, req.GetSprtId(), false); err != nil {
			return nil, err
		}
		return nil, status.Errorf(codes.FailedPrecondition, "strength test %s has already ended", req.GetSprtId())
	}
	for {
		changed := t.changes()
		s.mu.Lock()
		out, ended := t.protoLocked(false), !t.running()
		s.mu.Unlock()
		if ended {
			return &orreryv1.StopSPRTResponse{Sprt: out}, nil
		}
		select {
		case <-ctx.Done():
			return nil, status.FromContextError(ctx.Err()).Err()
		case <-s.ctx.Done():
			return nil, errClosing
		case <-changed:
		}
	}
}

// normalise checks a request against the game and the bots, and fills in its defaults: the
// stored spec names built-in bots "builtin:NAME", so a bot registered later under the same
// name changes nothing.
func (s *Service) normalise(ctx context.Context, req *orreryv1.StartSPRTRequest) (*orreryv1.StartSPRTRequest, error) {
	spec := proto.CloneOf(req)
	g, err := engine.Lookup(spec.GetGame())
	if err != nil {
		return nil, err
	}
	info := g.Info()
	if spec.Candidate, spec.CandidateVersion, err = s.entrant(ctx, spec.GetGame(), spec.GetCandidate(), spec.GetCandidateVersion(), "candidate"); err != nil {
		return nil, err
	}
	if spec.Baseline, spec.BaselineVersion, err = s.entrant(ctx, spec.GetGame(), spec.GetBaseline(), spec.GetBaselineVersion(), "baseline"); err != nil {
		return nil, err
	}
	opponents := spec.GetOpponents()
	if len(opponents) == 0 {
		opponents = []string{"greedy"}
		if _, ok := builtinName(spec.GetBaseline()); ok {
			opponents = []string{spec.GetBaseline()}
		}
	}
	seats := int(spec.GetSeats())
	switch {
	case seats == 0 && len(opponents) > 1:
		seats = 1 + len(opponents)
	case seats == 0:
		seats = max(info.MinSeats, min(4, info.MaxSeats))
	}
	if seats < info.MinSeats || seats > info.MaxSeats {
		return nil, fmt.Errorf("%s takes %d to %d seats; seats %d", info.Name, info.MinSeats, info.MaxSeats, seats)
	}
	switch {
	case len(opponents) == 1:
		for len(opponents) < seats-1 {
			opponents = append(opponents, opponents[0])
		}
	case len(opponents) != seats-1:
		return nil, fmt.Errorf("opponents lists %d bots for the %d other seats (one name fills them all)", len(opponents), seats-1)
	}
	spec.Seats, spec.Opponents = int32(seats), make([]string, len(opponents))
	for i, o := range opponents {
		name := strings.TrimPrefix(strings.TrimSpace(o), builtinPrefix)
		if _, err := s.cfg.NewBot(spec.GetGame(), name, 0); err != nil {
			return nil, fmt.Errorf("opponent %q is not a built-in bot of %s (%v)", o, info.Name, err)
		}
		spec.Opponents[i] = builtinPrefix + name
	}
	if spec.Elo1 == nil {
		spec.Elo1 = proto.Float64(10)
	}
	if spec.Alpha == nil {
		spec.Alpha = proto.Float64(0.05)
	}
	if spec.Beta == nil {
		spec.Beta = proto.Float64(0.05)
	}
	if err := newTest("", spec, s.now()).bounds.Check(); err != nil {
		return nil, err
	}
	switch n := spec.GetMaxGames(); {
	case n < 0 || n > maxGames:
		return nil, fmt.Errorf("max_games %d: want 0 (the default, %d) to %d", n, defaultGames, maxGames)
	case n == 0:
		spec.MaxGames = defaultGames
	}
	switch n := spec.GetParallel(); {
	case n < 0 || n > maxParallel:
		return nil, fmt.Errorf("parallel %d: want 0 (the default, %d) to %d", n, defaultParallel, maxParallel)
	case n == 0:
		spec.Parallel = defaultParallel
	}
	if _, err := engine.New(spec.GetGame(), engine.Config{Seats: seats, Options: spec.GetOptions()}); err != nil {
		return nil, err
	}
	if spec.Seed == nil {
		var b [8]byte
		rand.Read(b[:])
		spec.Seed = proto.Uint64(binary.BigEndian.Uint64(b[:]))
	}
	return spec, nil
}

// entrant resolves the candidate's or the baseline's name: a registered (or hosted) bot's,
// or a built-in bot's ("builtin:NAME" forces it), and a hosted bot's module version, pinned
// to the newest if version is 0.
func (s *Service) entrant(ctx context.Context, game, name string, version int32, role string) (string, int32, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", 0, fmt.Errorf("%s is required", role)
	}
	b, forced := builtinName(name)
	if !forced && s.cfg.Bots != nil && s.cfg.Bots.Registered(name) {
		newest, err := s.cfg.Bots.HostedVersion(ctx, name)
		switch {
		case err != nil:
			return "", 0, fmt.Errorf("%s %q: its modules: %v", role, name, err)
		case version != 0 && newest == 0:
			return "", 0, fmt.Errorf("%s %q is not a hosted bot: it has no module version %d", role, name, version)
		case version < 0 || int(version) > newest:
			return "", 0, fmt.Errorf("%s %q has module versions 1 to %d, not %d", role, name, newest, version)
		case version == 0:
			version = int32(newest)
		}
		return name, version, nil
	}
	if version != 0 {
		return "", 0, fmt.Errorf("%s %q is a built-in bot: it has no module version", role, name)
	}
	if _, err := s.cfg.NewBot(game, b, 0); err != nil {
		return "", 0, fmt.Errorf("%s %q is neither a registered bot nor a built-in bot of %s (%v)", role, name, game, err)
	}
	return builtinPrefix + b, 0, nil
}

func newTestID() string {
	var b [9]byte
	rand.Read(b[:])
	return "s" + base64.RawURLEncoding.EncodeToString(b[:])
}
