package episodes

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// arena is a Source holding matches played in process by built-in bots, with the replays
// the arena would give: real logs of real games.
type arena struct {
	matches []*orreryv1.GetReplayResponse // newest first, as ListMatches lists
}

// play adds n finished matches of game played by the named bots, one per seat, ended one
// minute apart from start.
func (a *arena) play(t testing.TB, game string, n int, opts map[string]string, names []string, start time.Time) {
	t.Helper()
	for i := range n {
		seed := uint64(len(a.matches) + 1)
		seats := make([]bots.Bot, len(names))
		for s, name := range names {
			b, err := builtin.New(game, name, seed*10+uint64(s))
			if err != nil {
				t.Fatal(err)
			}
			seats[s] = b
		}
		cfg := engine.Config{Seats: len(names), Seed: seed, Options: opts}
		st, log, err := local.Play(game, cfg, seats)
		if err != nil {
			t.Fatal(err)
		}
		m := &orreryv1.MatchSummary{
			MatchId: fmt.Sprintf("m%03d", len(a.matches)+1), Game: game, Seats: int32(len(names)), Options: opts,
			Status: orreryv1.MatchStatus_MATCH_STATUS_FINISHED, Ply: int64(len(log)),
			Ended: timestamppb.New(start.Add(time.Duration(i) * time.Minute)), Result: wire.Result(st.Result()),
		}
		for s, name := range names {
			m.SeatInfo = append(m.SeatInfo, &orreryv1.SeatInfo{Seat: int32(s), Name: name})
		}
		rep := &orreryv1.GetReplayResponse{Match: m, Seed: seed}
		for _, step := range log {
			rep.Steps = append(rep.Steps, &orreryv1.ReplayStep{Seat: int32(step.Seat), Notation: st.FormatAction(step.Action)})
		}
		a.matches = append(a.matches, rep)
	}
	sort.SliceStable(a.matches, func(i, j int) bool {
		return a.matches[i].Match.Ended.AsTime().After(a.matches[j].Match.Ended.AsTime())
	})
}

// running adds a match still in play.
func (a *arena) running(game string) {
	a.matches = append([]*orreryv1.GetReplayResponse{{Match: &orreryv1.MatchSummary{
		MatchId: "live", Game: game, Seats: 2, Status: orreryv1.MatchStatus_MATCH_STATUS_RUNNING}}}, a.matches...)
}

// ListMatches pages by 7, so that an export follows page tokens.
func (a *arena) ListMatches(_ context.Context, req *orreryv1.ListMatchesRequest) (*orreryv1.ListMatchesResponse, error) {
	from, _ := strconv.Atoi(req.GetPageToken())
	var picked []*orreryv1.MatchSummary
	out := &orreryv1.ListMatchesResponse{}
	for i := from; i < len(a.matches); i++ {
		m := a.matches[i].Match
		if (req.GetGame() != "" && m.Game != req.GetGame()) || (req.GetStatus() != 0 && m.Status != req.GetStatus()) {
			continue
		}
		if len(picked) == 7 {
			out.NextPageToken = strconv.Itoa(i)
			break
		}
		picked = append(picked, m)
	}
	out.Matches = picked
	return out, nil
}

func (a *arena) GetReplay(_ context.Context, req *orreryv1.GetReplayRequest) (*orreryv1.GetReplayResponse, error) {
	for _, r := range a.matches {
		if r.Match.MatchId == req.GetMatchId() {
			if r.Match.Status != orreryv1.MatchStatus_MATCH_STATUS_FINISHED {
				return nil, status.Error(codes.FailedPrecondition, "the match is still running")
			}
			return r, nil
		}
	}
	return nil, status.Errorf(codes.NotFound, "no match %q", req.GetMatchId())
}
