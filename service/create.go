package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	otelcodes "go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/cluster"
	"github.com/orrery/orrery/service/match"
	"github.com/orrery/orrery/service/seedcommit"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/tracing"
)

// MatchSpec is a match to create, in engine terms.
type MatchSpec struct {
	Game    string
	Seats   int
	Options map[string]string
	Seed    *uint64
	Clock   *orreryv1.Clock
	Policy  orreryv1.TimeoutPolicy
	Names   []string
	// Bots is the registered or house bot (BotIdentities) that plays each seat, 0 for a seat
	// anyone with its token may play; only in-process callers that seat bots set it.
	Bots []int64
	// HouseBots names the built-in bot (CreateMatchRequest.bots) that plays each seat, ""
	// for a seat a client plays: stored, so that a restarted server seats them again.
	HouseBots []string
	// Creator, if set, is the hash of the creator token that AbortMatch takes from whoever
	// made the match (CreateMatch's caller); zero: only the admin aborts it.
	Creator [32]byte
	// Keys, if set, are the match's id and seat tokens (NewMatchKeys), chosen by an
	// in-process caller that records them before the match exists: on a cluster, a node dying
	// between creating a match and recording it would leave a match nobody can play.
	Keys *MatchKeys
}

// MatchKeys are a match's id and its seats' tokens.
type MatchKeys struct {
	ID     string
	Tokens []string
}

// NewMatchKeys draws a new match's id and the tokens of its seats.
func NewMatchKeys(seats int) *MatchKeys {
	k := &MatchKeys{ID: store.MatchID(time.Now()), Tokens: make([]string, seats)}
	for i := range k.Tokens {
		k.Tokens[i] = seatToken(k.ID)
	}
	return k
}

// ScheduleTournament counts a tournament's matches against its caller's hourly budget
// (limits.Schedule; serve --open-tournaments). A call a node relayed was counted there.
func (s *Server) ScheduleTournament(ctx context.Context, matches int) error {
	who := s.caller(ctx)
	if who.Node != "" {
		return nil
	}
	return s.limits.Schedule(who.Name, matches, s.now())
}

// maxSeats bounds the seats CreateMatch draws keys for before Create checks them against the
// game.
const maxSeats = 64

// CreateMatch starts a match.
func (s *Server) CreateMatch(ctx context.Context, req *orreryv1.CreateMatchRequest) (*orreryv1.CreateMatchResponse, error) {
	who := s.caller(ctx)
	if who.Node == "" { // a node that relays a create has counted it against its caller
		if err := s.limits.Create(who.Name, s.now()); err != nil {
			return nil, err
		}
	}
	if s.cfg.Names != nil {
		for i, name := range req.GetSeatNames() {
			if s.cfg.Names.Reserved(strings.TrimSpace(name)) {
				return nil, status.Errorf(codes.PermissionDenied, "seat_names[%d] %q is a registered bot's name: only the ladder seats it", i, s.limits.Clip(name))
			}
		}
	}
	if s.cluster != nil {
		if conn, err := s.cluster.CreateElsewhere(ctx, s.limits.Live(int(s.live.Load())) != nil); err != nil {
			return nil, err
		} else if conn != nil {
			resp, err := orreryv1.NewArenaServiceClient(conn).CreateMatch(s.cluster.ForwardContext(ctx), req)
			return resp, cluster.RelayStatus(err)
		}
	}
	bots, names, err := s.houseSeats(req)
	if err != nil {
		return nil, err
	}
	var houseBots []string // up to the last bot's seat: Create checks the seats asked for
	for seat, bot := range bots {
		if seat >= len(houseBots) {
			houseBots = append(houseBots, make([]string, seat+1-len(houseBots))...)
		}
		houseBots[seat] = bot
	}
	// The caller's live matches are counted where they run, bound to the match's id before
	// it exists, so that however soon it ends its place is given back.
	claim, err := s.limits.Own(who.Name)
	if err != nil {
		return nil, err
	}
	// The creator's proof for AbortMatch: a match with bots has seats whose tokens only the
	// server holds, so every seat's token is not a proof its creator can give.
	creator := randomToken()
	spec := MatchSpec{
		Game: req.GetGame(), Seats: int(req.GetSeats()), Options: req.GetOptions(), Seed: req.Seed,
		Clock: req.GetClock(), Policy: req.GetTimeoutPolicy(), Names: names, HouseBots: houseBots, Creator: hashToken(creator),
	}
	if spec.Seats > 0 && spec.Seats <= maxSeats {
		spec.Keys = NewMatchKeys(spec.Seats)
		claim.Bind(spec.Keys.ID)
	}
	id, tokens, hash, err := s.Create(ctx, spec)
	if err != nil {
		if spec.Keys != nil {
			s.limits.Disown(spec.Keys.ID)
		} else {
			claim.Drop()
		}
		return nil, err
	}
	resp := &orreryv1.CreateMatchResponse{MatchId: id, SeedHash: hash, CreatorToken: creator}
	for i, t := range tokens {
		if bot, ok := bots[i]; ok {
			if err := s.cfg.HouseSeats.Seat(req.GetGame(), bot, t); err != nil {
				s.Abort(ctx, id, fmt.Sprintf("seat %d's bot %s could not start", i, bot))
				return nil, status.Errorf(codes.Internal, "seat %d's bot %s: %v", i, bot, err)
			}
			continue // the server plays it: its token stays here
		}
		resp.Seats = append(resp.Seats, &orreryv1.SeatToken{Seat: int32(i), Token: t})
	}
	return resp, nil
}

// houseSeats checks the built-in bots a CreateMatch asks for and gives each bot's seat its
// bot's name, unless the request names it.
func (s *Server) houseSeats(req *orreryv1.CreateMatchRequest) (map[int]string, []string, error) {
	if len(req.GetBots()) == 0 {
		return nil, req.GetSeatNames(), nil
	}
	if s.cfg.HouseSeats == nil {
		return nil, nil, status.Error(codes.FailedPrecondition, "this server seats no built-in bots: give the seats' tokens to bots of your own (orrery join)")
	}
	known := s.cfg.HouseSeats.Bots(req.GetGame())
	bots := make(map[int]string, len(req.GetBots()))
	for _, b := range req.GetBots() {
		seat := int(b.GetSeat())
		switch {
		case seat < 0 || seat >= int(req.GetSeats()):
			return nil, nil, status.Errorf(codes.InvalidArgument, "bots: seat %d out of range: the match has %d seats", seat, req.GetSeats())
		case bots[seat] != "":
			return nil, nil, status.Errorf(codes.InvalidArgument, "bots: seat %d named twice", seat)
		case !slices.Contains(known, b.GetBot()):
			return nil, nil, status.Errorf(codes.InvalidArgument, "bots: no built-in bot %q for %s; there are %s", s.limits.Clip(b.GetBot()), s.limits.Clip(req.GetGame()), strings.Join(known, ", "))
		}
		bots[seat] = b.GetBot()
	}
	if len(bots) == int(req.GetSeats()) {
		return nil, nil, status.Error(codes.InvalidArgument, "bots: every seat is a bot's; leave one for a player")
	}
	// Names up to the last bot's seat, not the seats asked for, which Create checks later.
	last := 0
	for seat := range bots {
		last = max(last, seat)
	}
	names := make([]string, max(len(req.GetSeatNames()), last+1))
	copy(names, req.GetSeatNames())
	for seat, bot := range bots {
		if strings.TrimSpace(names[seat]) == "" {
			names[seat] = bot
		}
	}
	return bots, names, nil
}

// Create starts a match and returns its id, seat tokens and seed hash. In-process callers
// (the ladder, the CLI) use it directly.
func (s *Server) Create(ctx context.Context, spec MatchSpec) (id string, tokens []string, hash string, err error) {
	if s.env.Tracer != nil {
		var span trace.Span
		ctx, span = s.env.Tracer.Start(ctx, "orrery.create", trace.WithAttributes(tracing.Game.String(spec.Game), tracing.Seats.Int(spec.Seats)))
		defer func() {
			if id != "" {
				span.SetAttributes(tracing.MatchID.String(id))
			}
			if err != nil {
				span.SetStatus(otelcodes.Error, status.Code(err).String())
			}
			span.End()
		}()
	}
	if spec.Game == "" {
		return "", nil, "", status.Error(codes.InvalidArgument, "game is required; ListGames lists them")
	}
	if err := s.writable(); err != nil {
		return "", nil, "", err
	}
	g, err := engine.Lookup(spec.Game)
	if err != nil {
		return "", nil, "", status.Error(codes.InvalidArgument, err.Error())
	}
	info := g.Info()
	if spec.Seats == 0 {
		return "", nil, "", status.Errorf(codes.InvalidArgument, "seats is required: %s takes %d to %d", info.Name, info.MinSeats, info.MaxSeats)
	}
	if len(spec.Names) > spec.Seats {
		return "", nil, "", status.Errorf(codes.InvalidArgument, "%d seat names for %d seats", len(spec.Names), spec.Seats)
	}
	if len(spec.Bots) > spec.Seats || len(spec.HouseBots) > spec.Seats {
		return "", nil, "", status.Errorf(codes.InvalidArgument, "%d seat bots for %d seats", max(len(spec.Bots), len(spec.HouseBots)), spec.Seats)
	}
	if err := s.limits.SeatNames(spec.Names); err != nil {
		return "", nil, "", err
	}
	if err := s.limits.Options(info, spec.Options); err != nil {
		return "", nil, "", err
	}
	if err := s.limits.Live(int(s.live.Load())); err != nil {
		return "", nil, "", err
	}
	c, err := s.clockFrom(spec.Clock, info)
	if err != nil {
		return "", nil, "", err
	}
	policy := spec.Policy
	if policy == orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED {
		// A real-time team that misses a tick keeps its intents (the game's default action);
		// a turn-based seat that misses a turn gets a seeded random legal action.
		policy = orreryv1.TimeoutPolicy_TIMEOUT_POLICY_RANDOM
		if info.RealTime {
			policy = orreryv1.TimeoutPolicy_TIMEOUT_POLICY_DEFAULT
		}
	}
	if _, ok := orreryv1.TimeoutPolicy_name[int32(policy)]; !ok {
		return "", nil, "", status.Errorf(codes.InvalidArgument, "unknown timeout policy %d", policy)
	}
	var seed uint64
	if spec.Seed != nil {
		seed = *spec.Seed
	} else {
		var b [8]byte
		rand.Read(b[:])
		seed = binary.BigEndian.Uint64(b[:])
	}
	// A named data set becomes its bytes here, so the match never reads a file again.
	resolved, err := s.cfg.DataSets.Resolve(info, spec.Options)
	if err != nil {
		return "", nil, "", toStatus(err)
	}
	opts := make(map[string]string, len(resolved)+1)
	for k, v := range resolved {
		opts[k] = v
	}
	if info.RealTime && (c.Wall || opts["clock"] == "wall") {
		c.Wall = true
		opts["clock"] = "wall" // the engine then resolves ticks only when the server advances it
	}
	cfg := engine.Config{Seats: spec.Seats, Seed: seed, Options: opts}
	st, err := engine.New(spec.Game, cfg)
	if err != nil {
		return "", nil, "", toStatus(err)
	}
	names := make([]string, spec.Seats)
	copy(names, spec.Names)
	keys := spec.Keys
	if keys == nil {
		keys = NewMatchKeys(spec.Seats)
	} else if len(keys.Tokens) != spec.Seats || keys.ID == "" {
		return "", nil, "", status.Errorf(codes.InvalidArgument, "match keys: %d tokens for %d seats", len(keys.Tokens), spec.Seats)
	}
	tokens = keys.Tokens
	hashes := make([]string, spec.Seats)
	seatHashes := make([][32]byte, spec.Seats)
	for i := range tokens {
		seatHashes[i] = hashToken(tokens[i])
		hashes[i] = hex.EncodeToString(seatHashes[i][:])
	}
	salt, commitment := seedcommit.New(seed)
	rec := &store.Match{
		ID: keys.ID, Game: spec.Game, Seats: spec.Seats, Options: opts, Seed: seed, SeedSalt: salt, SeedHash: commitment,
		Names: names, TokenHashes: hashes, Bots: seatBots(spec.Bots, spec.Seats), PerMove: c.PerMove, Increment: c.Increment, TimeBank: c.Bank,
		TimeoutPolicy: int32(policy), Created: s.now(),
	}
	rec.WallClock = c.Wall
	rec.HouseBots = spec.HouseBots
	if spec.Creator != ([32]byte{}) {
		rec.CreatorHash = hex.EncodeToString(spec.Creator[:])
	}
	if s.store != nil {
		s.reg.creatingNow(rec.ID, true)
		defer s.reg.creatingNow(rec.ID, false)
		if s.cluster != nil {
			if err := s.cluster.Lease(ctx, rec.ID); err != nil {
				return "", nil, "", toStatus(err)
			}
		}
		if err := s.storeCreate(ctx, rec); err != nil {
			// A database that cannot take the match (a full disk): the client may retry later.
			s.log.Error("store: create match", "err", err)
			return "", nil, "", status.Error(codes.Unavailable, "the server cannot write to its database; try again later")
		}
	}
	ms := specOf(rec, c, s.actionCache(rec.Game, rec.Options))
	ms.Trace = trace.SpanContextFromContext(ctx) // the create's span, if tracing
	s.start(ms, match.NewLog(st), seatHashes, spec.Creator)
	s.log.Info("match created", "match", rec.ID, "game", rec.Game, "seats", spec.Seats)
	return rec.ID, tokens, rec.SeedHash, nil
}

func (s *Server) clockFrom(c *orreryv1.Clock, info engine.Info) (match.Clock, error) {
	out := match.Clock{PerMove: s.cfg.Clock.PerMove, Increment: s.cfg.Clock.Increment, Bank: s.cfg.Clock.TimeBank}
	check := func(name string, d time.Duration, dst *time.Duration) error {
		if d < 0 || d > 24*time.Hour {
			return status.Errorf(codes.InvalidArgument, "clock.%s %v out of range 0..24h", name, d)
		}
		*dst = d
		return nil
	}
	if c.GetPerMove() != nil {
		if err := check("per_move", c.GetPerMove().AsDuration(), &out.PerMove); err != nil {
			return out, err
		}
		if out.PerMove == 0 {
			return out, status.Error(codes.InvalidArgument, "clock.per_move must be positive")
		}
	}
	if c.GetIncrement() != nil {
		if err := check("increment", c.GetIncrement().AsDuration(), &out.Increment); err != nil {
			return out, err
		}
	}
	if c.GetTimeBank() != nil {
		if err := check("time_bank", c.GetTimeBank().AsDuration(), &out.Bank); err != nil {
			return out, err
		}
	}
	if c.GetWallClock() {
		if !info.RealTime {
			return out, status.Errorf(codes.InvalidArgument, "clock.wall_clock is for real-time games; %s is turn-based", info.Name)
		}
		out.Wall = true
	}
	return out, nil
}

// storeCreate commits a new match, in a span of its own when tracing.
func (s *Server) storeCreate(ctx context.Context, rec *store.Match) error {
	if s.env.Tracer == nil {
		return s.store.CreateMatch(ctx, rec)
	}
	ctx, span := s.env.Tracer.Start(ctx, "orrery.store.commit", trace.WithAttributes(
		tracing.MatchID.String(rec.ID), tracing.MatchIDs.StringSlice([]string{rec.ID}), tracing.Seats.Int(rec.Seats)))
	defer span.End()
	err := s.store.CreateMatch(ctx, rec)
	if err != nil {
		span.SetStatus(otelcodes.Error, "the store refused the match")
	}
	return err
}

// specOf is what a stored match is.
func specOf(rec *store.Match, c match.Clock, actions *wire.ActionCache) match.Spec {
	return match.Spec{
		ID: rec.ID, Game: rec.Game, Config: engine.Config{Seats: rec.Seats, Seed: rec.Seed, Options: rec.Options},
		SeedHash: rec.SeedHash, SeedSalt: rec.SeedSalt, Names: rec.Names, Clock: c,
		Policy: orreryv1.TimeoutPolicy(rec.TimeoutPolicy), Created: rec.Created, Actions: actions,
	}
}

// storedClock is a stored match's time control.
func storedClock(rec *store.Match) match.Clock {
	return match.Clock{PerMove: rec.PerMove, Increment: rec.Increment, Bank: rec.TimeBank, Wall: rec.WallClock}
}

// maxActionCaches is how many configured games' action caches the server keeps for matches
// still to come: many more than the option sets a busy server plays at once.
const maxActionCaches = 64

// actionCache is the action cache of a configured game: the same options, the same cache.
// The key is a digest, as options may hold a whole data set.
func (s *Server) actionCache(game string, options map[string]string) *wire.ActionCache {
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	h.Write([]byte(game))
	for _, k := range keys {
		fmt.Fprintf(h, "\x00%d:%s=%d:%s", len(k), k, len(options[k]), options[k])
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	if c, ok := s.actions.Get(key); ok {
		return c
	}
	c := new(wire.ActionCache)
	if prev, ok, _ := s.actions.PeekOrAdd(key, c); ok {
		return prev
	}
	return c
}
