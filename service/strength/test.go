package strength

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/sprt"
)

// test is one strength test. Its fields after created are guarded by Service.mu, except the
// change signal.
type test struct {
	id      string
	spec    *orreryv1.StartSPRTRequest // normalised (normalise): defaults filled, built-ins as "builtin:NAME"
	created time.Time
	pairing sprt.Pairing
	bounds  sprt.Bounds

	finished time.Time
	status   orreryv1.SPRTStatus
	failure  string
	st       sprt.Status
	pairs    []*orreryv1.SPRTPair
	history  []float64          // the LLR after each pair
	playing  map[int]*[2]string // the match ids of the deals being played: candidate's, baseline's
	orphans  []string           // matches an earlier server left running, aborted on resume
	cancel   context.CancelFunc
	stopping bool // StopSPRT ends it

	changeMu sync.Mutex
	changed  chan struct{} // closed and replaced at every change, for watchers
}

// builtinPrefix marks a built-in bot's name in a normalised spec.
const builtinPrefix = "builtin:"

// builtinName is the built-in bot a normalised name stands for, if it is one.
func builtinName(name string) (string, bool) { return strings.CutPrefix(name, builtinPrefix) }

// shown is a normalised name as people read it: a built-in bot by its plain name.
func shown(name string) string {
	if b, ok := builtinName(name); ok {
		return b
	}
	return name
}

func newTest(id string, spec *orreryv1.StartSPRTRequest, created time.Time) *test {
	t := &test{id: id, spec: spec, created: created, status: orreryv1.SPRTStatus_SPRT_STATUS_RUNNING,
		playing: map[int]*[2]string{}, changed: make(chan struct{})}
	t.pairing = sprt.Pairing{Candidate: spec.GetCandidate(), Baseline: spec.GetBaseline(), Opponents: spec.GetOpponents(), Seed: spec.GetSeed()}
	t.bounds = sprt.Bounds{Elo0: spec.GetElo0(), Elo1: spec.GetElo1(), Alpha: spec.GetAlpha(), Beta: spec.GetBeta()}
	t.recount()
	return t
}

// check says what is wrong with stored pairs, if anything: they are deals 0, 1, ... in
// order, each in its seat, with a rank from 1 to seats for every seat.
func (t *test) check() error {
	k := t.pairing.Seats()
	for i, p := range t.pairs {
		if int(p.GetDeal()) != i || int(p.GetSeat()) != i%k {
			return fmt.Errorf("pair %d is deal %d in seat %d", i, p.GetDeal(), p.GetSeat())
		}
		for _, ranks := range [][]int32{p.GetCandidateRanks(), p.GetBaselineRanks()} {
			if len(ranks) != k || slices.ContainsFunc(ranks, func(r int32) bool { return r < 1 || int(r) > k }) {
				return fmt.Errorf("deal %d: ranks %v for %d seats", i, ranks, k)
			}
		}
	}
	return nil
}

// recount computes the status and the LLR history from the pairs.
func (t *test) recount() {
	tally := sprt.NewTally(t.pairing.Seats())
	t.history = t.history[:0]
	for _, p := range t.pairs {
		tally.Add(counted(p).Points())
		t.history = append(t.history, tally.LLR(t.bounds))
	}
	t.st = tally.Assess(t.bounds, t.maxPairs())
}

func (t *test) maxPairs() int { return (int(t.spec.GetMaxGames()) + 1) / 2 }

// counted is a stored pair as service/sprt counts it.
func counted(p *orreryv1.SPRTPair) sprt.Pair {
	out := sprt.Pair{Deal: int(p.GetDeal()), Seat: int(p.GetSeat())}
	for _, r := range p.GetCandidateRanks() {
		out.Candidate = append(out.Candidate, int(r))
	}
	for _, r := range p.GetBaselineRanks() {
		out.Baseline = append(out.Baseline, int(r))
	}
	return out
}

func (t *test) running() bool { return t.status == orreryv1.SPRTStatus_SPRT_STATUS_RUNNING }

// notify wakes the watchers.
func (t *test) notify() {
	t.changeMu.Lock()
	close(t.changed)
	t.changed = make(chan struct{})
	t.changeMu.Unlock()
}

func (t *test) changes() <-chan struct{} {
	t.changeMu.Lock()
	defer t.changeMu.Unlock()
	return t.changed
}

// protoLocked describes t; with pairs, its pairs and LLR history too. Service.mu is held.
func (t *test) protoLocked(pairs bool) *orreryv1.SPRT {
	spec, st := t.spec, t.st
	out := &orreryv1.SPRT{
		SprtId: t.id, Game: spec.GetGame(), Candidate: shown(spec.GetCandidate()), Baseline: shown(spec.GetBaseline()),
		Seats: int32(t.pairing.Seats()), Elo0: spec.GetElo0(), Elo1: spec.GetElo1(), Alpha: spec.GetAlpha(), Beta: spec.GetBeta(),
		MaxGames: spec.GetMaxGames(), Parallel: spec.GetParallel(), Status: t.status, Decision: string(st.Decision),
		Games: int32(st.Games), Pairs: int32(st.Pairs), Llr: st.LLR, LlrLower: st.Lower, LlrUpper: st.Upper,
		Elo: st.Elo, EloLow: st.EloLow, EloHigh: st.EloHi, Los: st.LOS, Started: timestamppb.New(t.created),
		Error: t.failure, Options: spec.GetOptions(), CandidateVersion: spec.GetCandidateVersion(), BaselineVersion: spec.GetBaselineVersion(),
	}
	for _, o := range spec.GetOpponents() {
		out.Opponents = append(out.Opponents, shown(o))
	}
	for _, c := range st.Counts {
		out.PairScores = append(out.PairScores, int32(c))
	}
	if !t.running() {
		out.Finished = timestamppb.New(t.finished)
		seed := spec.GetSeed()
		out.Seed = &seed
	}
	if pairs {
		out.PairList = slices.Clone(t.pairs)
		out.LlrHistory = append([]float64(nil), t.history...)
	}
	return out
}
