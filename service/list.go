package service

import (
	"context"
	"errors"
	"slices"
	"sort"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/cluster"
	"github.com/orrery/orrery/service/match"
	"github.com/orrery/orrery/service/store"
)

// ListGames is the catalog.
func (s *Server) ListGames(ctx context.Context, _ *orreryv1.ListGamesRequest) (*orreryv1.ListGamesResponse, error) {
	resp := &orreryv1.ListGamesResponse{}
	for _, name := range engine.Names() {
		g, _ := engine.Lookup(name)
		info := wire.GameInfo(g)
		if s.cfg.HouseSeats != nil {
			info.Bots = s.cfg.HouseSeats.Bots(name)
		}
		resp.Games = append(resp.Games, info)
	}
	return resp, nil
}

// GetMatch describes one match.
func (s *Server) GetMatch(ctx context.Context, req *orreryv1.GetMatchRequest) (*orreryv1.GetMatchResponse, error) {
	at, err := s.locate(ctx, req.GetMatchId())
	if err != nil {
		return nil, err
	}
	if conn, err := s.elsewhere(ctx, at); err != nil {
		return nil, err
	} else if conn != nil {
		resp, err := orreryv1.NewArenaServiceClient(conn).GetMatch(s.cluster.ForwardContext(ctx), req)
		return resp, cluster.RelayStatus(err)
	}
	return &orreryv1.GetMatchResponse{Match: at.summary()}, nil
}

// ListMatches lists matches newest first. With a store it lists everything stored; without,
// the matches in memory.
func (s *Server) ListMatches(ctx context.Context, req *orreryv1.ListMatchesRequest) (*orreryv1.ListMatchesResponse, error) {
	size := int(req.GetPageSize())
	if size < 0 || size > 500 {
		return nil, status.Errorf(codes.InvalidArgument, "page_size %d out of range 0..500", size)
	}
	if size == 0 {
		size = 50
	}
	if s.store == nil {
		if req.GetBot() != "" {
			return nil, s.noBot(req.GetBot())
		}
		return s.listMemory(req, size), nil
	}
	f := store.Filter{Game: req.GetGame(), SeatName: req.GetSeatName(), Before: req.GetPageToken(), Limit: size}
	if name := req.GetBot(); name != "" {
		id, err := s.botID(name)
		if err != nil {
			return nil, err
		}
		f.Bot = id
	}
	switch req.GetStatus() {
	case orreryv1.MatchStatus_MATCH_STATUS_RUNNING:
		f.Status = store.Running
	case orreryv1.MatchStatus_MATCH_STATUS_FINISHED:
		f.Status = store.Finished
	case orreryv1.MatchStatus_MATCH_STATUS_FAILED:
		f.Status = store.Failed
	}
	recs, next, err := s.store.List(ctx, f)
	if err != nil {
		return nil, toStatus(err)
	}
	return &orreryv1.ListMatchesResponse{NextPageToken: next, Matches: s.summaries(ctx, recs)}, nil
}

// summaries describes stored matches. A running match that another node of the cluster
// holds is described by its owner, as GetMatch relays it (the store has only its start),
// the owners asked a few at a time; one that cannot answer leaves the stored description.
func (s *Server) summaries(ctx context.Context, recs []*store.Match) []*orreryv1.MatchSummary {
	out := make([]*orreryv1.MatchSummary, len(recs))
	var asking sync.WaitGroup
	turns := make(chan struct{}, 16) // a page may list 500 matches held elsewhere
	for i, rec := range recs {
		at := s.locateStored(rec)
		out[i] = at.summary()
		if at.m != nil || rec.Result != nil || s.cluster == nil {
			continue
		}
		turns <- struct{}{}
		asking.Go(func() {
			defer func() { <-turns }()
			conn, err := s.elsewhere(ctx, at)
			if err != nil || conn == nil {
				return
			}
			resp, err := orreryv1.NewArenaServiceClient(conn).GetMatch(s.cluster.ForwardContext(ctx), &orreryv1.GetMatchRequest{MatchId: rec.ID})
			if err == nil && resp.GetMatch() != nil {
				out[i] = resp.GetMatch()
			}
		})
	}
	asking.Wait()
	for i, sum := range out {
		out[i] = listed(sum)
	}
	return out
}

// listed is a summary as a listing carries it: without its data sets (engine.Option.Data),
// which GetMatch shows with their match. A 1 MiB inline data set was in every listing: 300
// matches made each listing 314 MB.
func listed(sum *orreryv1.MatchSummary) *orreryv1.MatchSummary {
	g, err := engine.Lookup(sum.GetGame())
	if err != nil {
		return sum
	}
	var data []string
	for _, o := range g.Info().Options {
		if _, ok := sum.GetOptions()[o.Name]; ok && o.Data {
			data = append(data, o.Name)
		}
	}
	if len(data) == 0 {
		return sum
	}
	c := proto.Clone(sum).(*orreryv1.MatchSummary) // the match's own summary is shared
	for _, name := range data {
		delete(c.Options, name)
	}
	return c
}

// botID is the identity of the bot called name.
func (s *Server) botID(name string) (int64, error) {
	if s.cfg.Bots != nil {
		if id, ok := s.cfg.Bots.BotID(name); ok {
			return id, nil
		}
	}
	return 0, s.noBot(name)
}

func (s *Server) noBot(name string) error {
	return status.Errorf(codes.NotFound, "bot: no registered or house bot %q", s.limits.Clip(name))
}

// seatBots is MatchSpec.Bots for n seats, nil when no seat has a bot.
func seatBots(bots []int64, n int) []int64 {
	if !slices.ContainsFunc(bots, func(id int64) bool { return id != 0 }) {
		return nil
	}
	out := make([]int64, n)
	copy(out, bots)
	return out
}

func (s *Server) listMemory(req *orreryv1.ListMatchesRequest, size int) *orreryv1.ListMatchesResponse {
	resp := &orreryv1.ListMatchesResponse{}
	for _, m := range s.reg.all() {
		sum := m.Summary()
		if req.GetGame() != "" && sum.Game != req.GetGame() {
			continue
		}
		if req.GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_UNSPECIFIED && sum.Status != req.GetStatus() {
			continue
		}
		resp.Matches = append(resp.Matches, listed(sum))
	}
	sortSummaries(resp.Matches)
	if len(resp.Matches) > size {
		resp.Matches = resp.Matches[:size]
	}
	return resp
}

// GetReplay is a finished match's seed, log, events and result.
func (s *Server) GetReplay(ctx context.Context, req *orreryv1.GetReplayRequest) (*orreryv1.GetReplayResponse, error) {
	if s.seedWithheld(req.GetMatchId()) {
		return nil, errSetRunning(req.GetMatchId())
	}
	at, err := s.locate(ctx, req.GetMatchId())
	if err != nil {
		return nil, err
	}
	if at.orphan {
		return nil, matchFailed(req.GetMatchId())
	}
	if at.m == nil {
		return LoadReplay(ctx, s.store, req.GetMatchId())
	}
	rep, err := at.m.Replay()
	if err != nil {
		return nil, toStatus(err)
	}
	return rep, nil
}

// LoadReplay reads a finished match's replay from the store, re-running its log.
func LoadReplay(ctx context.Context, db *store.DB, id string) (*orreryv1.GetReplayResponse, error) {
	rec, err := db.Match(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, matchNotFound(id)
	}
	if err != nil {
		return nil, toStatus(err)
	}
	if rec.Failed() {
		return nil, matchFailed(rec.ID)
	}
	if rec.Result == nil {
		return nil, errReplayRunning
	}
	r, err := match.Replay(ctx, db, rec)
	if err != nil {
		return nil, status.Errorf(codes.DataLoss, "replay of %s: %v", rec.ID, err)
	}
	return r.Replay(summaryFromStore(rec), rec.Seed, rec.SeedSalt), nil
}

func summaryFromStore(rec *store.Match) *orreryv1.MatchSummary {
	sum := &orreryv1.MatchSummary{
		MatchId: rec.ID, Game: rec.Game, Seats: int32(rec.Seats), Options: rec.Options,
		Status: orreryv1.MatchStatus_MATCH_STATUS_RUNNING, SeedHash: rec.SeedHash,
		Created:       timestamppb.New(rec.Created),
		Clock:         storedClock(rec).Proto(),
		TimeoutPolicy: orreryv1.TimeoutPolicy(rec.TimeoutPolicy),
	}
	for i, name := range rec.Names {
		info := &orreryv1.SeatInfo{Seat: int32(i), Name: name}
		if r := rec.Result; r != nil && i < len(r.Timeouts) && i < len(r.Banks) {
			info.Timeouts, info.TimeBank = int32(r.Timeouts[i]), durationpb.New(r.Banks[i])
		}
		sum.SeatInfo = append(sum.SeatInfo, info)
	}
	if rec.Failed() {
		sum.Status = orreryv1.MatchStatus_MATCH_STATUS_FAILED
		sum.Ended = timestamppb.New(rec.Ended)
		sum.Result = &orreryv1.Result{Reason: orreryv1.EndReason_END_REASON_FAILED, Detail: rec.Result.Detail}
		return sum
	}
	if r := rec.Result; r != nil {
		sum.Status = orreryv1.MatchStatus_MATCH_STATUS_FINISHED
		sum.Ended = timestamppb.New(rec.Ended)
		sum.Ply = r.Plies
		sum.Result = &orreryv1.Result{Scores: r.Scores, Reason: orreryv1.EndReason(r.Reason), Detail: r.Detail}
		for _, rank := range r.Ranks {
			sum.Result.Ranks = append(sum.Result.Ranks, int32(rank))
		}
	}
	return sum
}

func sortSummaries(ms []*orreryv1.MatchSummary) {
	sort.SliceStable(ms, func(i, j int) bool {
		return ms[i].GetCreated().AsTime().After(ms[j].GetCreated().AsTime())
	})
}
