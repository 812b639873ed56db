// Package episodes turns finished matches into training data (docs/training.md): for every
// decision of a match, the acting seat's observation tensor, the ids of its legal actions, the
// ids of the action it chose, and the final rewards. Each row is built from the acting seat's
// own view, replayed with the open engine, so no row holds another seat's hidden information;
// a running match has no replay, so it has no rows.
package episodes

import (
	"context"
	"fmt"
	"slices"

	"google.golang.org/grpc"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Row is one decision of a finished match.
type Row struct {
	MatchID string `parquet:"match_id" json:"match_id"`
	Game    string `parquet:"game" json:"game"`
	// Ply is the step of the match's log at which the seat acted.
	Ply  int32 `parquet:"ply" json:"ply"`
	Seat int32 `parquet:"seat" json:"seat"`
	// Observation is the seat's tensor (docs/training.md), flattened.
	Observation []float32 `parquet:"observation,list" json:"observation"`
	// LegalIDs is the ids of the seat's legal actions, one per head each, in legal order.
	LegalIDs []int32 `parquet:"legal_ids,list" json:"legal_ids"`
	// ActionIDs is the chosen action's id in each head; -1 for an open-ended action outside the
	// listed family (it has no id).
	ActionIDs []int32 `parquet:"action_ids,list" json:"action_ids"`
	// Reward is the seat's final reward, Rewards every seat's (engine.RankRewards); zero for a
	// match cut short by its cap or aborted.
	Reward  float32   `parquet:"reward" json:"reward"`
	Rewards []float32 `parquet:"rewards,list" json:"rewards"`
}

// Source is where finished matches come from: the arena, or a client of it.
type Source interface {
	ListMatches(ctx context.Context, req *orreryv1.ListMatchesRequest) (*orreryv1.ListMatchesResponse, error)
	GetReplay(ctx context.Context, req *orreryv1.GetReplayRequest) (*orreryv1.GetReplayResponse, error)
}

// ClientSource adapts an ArenaService client to Source.
func ClientSource(c orreryv1.ArenaServiceClient) Source { return clientSource{c} }

type clientSource struct{ c orreryv1.ArenaServiceClient }

func (s clientSource) ListMatches(ctx context.Context, req *orreryv1.ListMatchesRequest) (*orreryv1.ListMatchesResponse, error) {
	return s.c.ListMatches(ctx, req, grpc.MaxCallRecvMsgSize(1<<28))
}

func (s clientSource) GetReplay(ctx context.Context, req *orreryv1.GetReplayRequest) (*orreryv1.GetReplayResponse, error) {
	return s.c.GetReplay(ctx, req, grpc.MaxCallRecvMsgSize(1<<28))
}

// Rows appends the rows of a finished match's replay to out: the decisions of the seats keep
// accepts (every seat when keep is nil).
func Rows(rep *orreryv1.GetReplayResponse, keep func(seat int) bool, out []Row) ([]Row, error) {
	m := rep.GetMatch()
	if m.GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_FINISHED {
		return out, fmt.Errorf("match %s has not finished: only finished matches have episodes", m.GetMatchId())
	}
	cfg := engine.Config{Seats: int(m.GetSeats()), Seed: rep.GetSeed(), Options: m.GetOptions()}
	tz, ok, err := engine.TensorsOf(m.GetGame(), cfg)
	if err != nil || !ok {
		return out, fmt.Errorf("match %s: %s has no tensors (%v)", m.GetMatchId(), m.GetGame(), err)
	}
	st, err := engine.New(m.GetGame(), cfg)
	if err != nil {
		return out, fmt.Errorf("match %s: %w", m.GetMatchId(), err)
	}
	rewards := finalRewards(m)
	heads := len(tz.Heads())
	size := engine.ObservationSize(tz)
	var legal []engine.Action
	for i, sp := range rep.GetSteps() {
		step := engine.Step{Seat: engine.Seat(sp.GetSeat())}
		if step.Seat == engine.Spectator && sp.GetNotation() == "" {
			if err := engine.ApplyStep(st, step); err != nil { // a wall-clock tick
				return out, fmt.Errorf("match %s step %d: %w", m.GetMatchId(), i, err)
			}
			continue
		}
		a, err := st.ParseAction(sp.GetNotation())
		if err != nil {
			return out, fmt.Errorf("match %s step %d %q: %w", m.GetMatchId(), i, sp.GetNotation(), err)
		}
		step.Action = a
		if seat := int(step.Seat); seat >= 0 && seat < cfg.Seats && (keep == nil || keep(seat)) {
			obs := st.Observe(step.Seat)
			legal = st.Legal(step.Seat, legal[:0])
			r := Row{MatchID: m.GetMatchId(), Game: m.GetGame(), Ply: int32(i), Seat: int32(seat),
				Observation: make([]float32, size), LegalIDs: make([]int32, len(legal)*heads),
				ActionIDs: make([]int32, heads), Reward: rewards[seat], Rewards: rewards}
			if err := tz.Encode(obs, r.Observation); err != nil {
				return out, fmt.Errorf("match %s step %d: %w", m.GetMatchId(), i, err)
			}
			if !tz.ActionIDs(obs, legal, r.LegalIDs) {
				return out, fmt.Errorf("match %s step %d: a legal action has no id", m.GetMatchId(), i)
			}
			if !tz.ActionIDs(obs, []engine.Action{a}, r.ActionIDs) {
				for h := range r.ActionIDs {
					r.ActionIDs[h] = -1
				}
			}
			out = append(out, r)
		}
		if err := engine.ApplyStep(st, step); err != nil {
			return out, fmt.Errorf("match %s step %d %q: %w", m.GetMatchId(), i, sp.GetNotation(), err)
		}
	}
	return out, nil
}

// finalRewards is every seat's reward from the match's result: none for a match its cap
// cut short, its host aborted, or the server failed.
func finalRewards(m *orreryv1.MatchSummary) []float32 {
	out := make([]float32, m.GetSeats())
	res := m.GetResult()
	switch res.GetReason() {
	case orreryv1.EndReason_END_REASON_CAP, orreryv1.EndReason_END_REASON_ABORTED, orreryv1.EndReason_END_REASON_FAILED:
		return out
	}
	if len(res.GetRanks()) != len(out) {
		return out
	}
	ranks := make([]int, len(out))
	for s, r := range res.GetRanks() {
		ranks[s] = int(r)
	}
	engine.RankRewards(ranks, out)
	return out
}

// seatsNamed is a keep function for the seats of m named one of names; nil names keep all.
func seatsNamed(m *orreryv1.MatchSummary, names []string) (keep func(int) bool, any bool) {
	if len(names) == 0 {
		return nil, true
	}
	named := make([]bool, m.GetSeats())
	for _, si := range m.GetSeatInfo() {
		if s := int(si.GetSeat()); s >= 0 && s < len(named) && slices.Contains(names, si.GetName()) {
			named[s], any = true, true
		}
	}
	return func(s int) bool { return named[s] }, any
}
