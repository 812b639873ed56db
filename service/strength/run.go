package strength

import (
	"context"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/sprt"
)

// launchLocked starts t's goroutine. Service.mu is held.
func (s *Service) launchLocked(t *test) {
	ctx, cancel := context.WithCancel(s.ctx)
	t.cancel = cancel
	s.wg.Add(1)
	go s.drive(ctx, t)
}

// drive plays t's pairs until the test decides, runs out of games, fails or is stopped, and
// records its end; if the service closes first, the test resumes on the next start.
func (s *Service) drive(ctx context.Context, t *test) {
	defer s.wg.Done()
	defer t.cancel()
	s.mu.Lock()
	orphans := t.orphans
	t.orphans = nil
	prior := make([]sprt.Pair, len(t.pairs))
	for i, p := range t.pairs {
		prior[i] = counted(p)
	}
	s.mu.Unlock()
	for _, id := range orphans {
		// A deal an earlier server was playing is played again from its start.
		s.arena.Abort(ctx, id, "the server restarted during its strength test, which plays the deal again")
	}
	cfg := sprt.Config{
		Bounds: t.bounds, MaxGames: int(t.spec.GetMaxGames()), Parallel: int(t.spec.GetParallel()), Counted: prior,
		Played:   func(p sprt.Pair) { s.played(t, p) },
		Progress: func(st sprt.Status) { s.progress(t, st) },
	}
	st, err := sprt.Run(ctx, t.pairing, cfg, func(ctx context.Context, g sprt.Game) ([]int, error) {
		return s.playGame(ctx, t, g)
	})
	s.mu.Lock()
	stopping := t.stopping
	s.mu.Unlock()
	switch {
	case err == nil:
		s.finish(t, orreryv1.SPRTStatus_SPRT_STATUS_FINISHED, "", &st)
	case stopping:
		s.finish(t, orreryv1.SPRTStatus_SPRT_STATUS_STOPPED, "", nil)
	case s.ctx.Err() != nil:
		// The server is closing: the test resumes when it starts again.
	default:
		s.log.Error("sprt failed", "sprt", t.id, "err", err)
		s.finish(t, orreryv1.SPRTStatus_SPRT_STATUS_FAILED, err.Error(), nil)
	}
}

// played stores a counted pair with the ids of its two matches.
func (s *Service) played(t *test, p sprt.Pair) {
	out := &orreryv1.SPRTPair{Deal: int32(p.Deal), Seat: int32(p.Seat)}
	for _, r := range p.Candidate {
		out.CandidateRanks = append(out.CandidateRanks, int32(r))
	}
	for _, r := range p.Baseline {
		out.BaselineRanks = append(out.BaselineRanks, int32(r))
	}
	s.mu.Lock()
	if ids := t.playing[p.Deal]; ids != nil {
		out.CandidateMatchId, out.BaselineMatchId = ids[0], ids[1]
	}
	delete(t.playing, p.Deal)
	t.pairs = append(t.pairs, out)
	s.mu.Unlock()
	if err := s.db.addPair(s.ctx, t.id, out); err != nil && s.ctx.Err() == nil {
		// Counted here, not stored: a restarted server plays the deal again.
		s.log.Error("sprt: store a pair", "sprt", t.id, "deal", p.Deal, "err", err)
	}
}

// progress takes the status after a counted pair.
func (s *Service) progress(t *test, st sprt.Status) {
	s.mu.Lock()
	t.st = st
	t.history = append(t.history, st.LLR)
	s.mu.Unlock()
	t.notify()
}

// finish records t's end and opens its matches' seeds.
func (s *Service) finish(t *test, status orreryv1.SPRTStatus, failure string, st *sprt.Status) {
	now := s.now()
	if err := s.db.finish(context.WithoutCancel(s.ctx), t.id, status, failure, now); err != nil {
		s.log.Error("sprt: record the end", "sprt", t.id, "err", err)
		return // stored as running: it resumes on the next start, its seeds withheld
	}
	// Every game has ended or been aborted: the seeds open before anyone hears of the end.
	ids, err := s.db.matchIDs(context.WithoutCancel(s.ctx), t.id)
	if err != nil {
		s.log.Error("sprt: list the matches to unseal", "sprt", t.id, "err", err)
	}
	s.unseal(ids)
	s.mu.Lock()
	t.status, t.failure, t.finished = status, failure, now
	if st != nil {
		t.st = *st
	}
	delete(s.tests, t.id)
	s.mu.Unlock()
	t.notify()
	s.log.Info("sprt finished", "sprt", t.id, "status", status, "decision", t.st.Decision, "games", t.st.Games)
}
