package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	botladder "github.com/orrery/orrery/bots/ladder"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/sprt"
)

// remoteSPRT runs orrery sprt --server: the server plays the test among its registered,
// hosted and built-in bots (SPRTService), and this command follows it with the progress line
// to its end. Interrupting it stops following the test, not the test; --follow ID follows it
// again and --stop ID ends it.
func remoteSPRT(ctx context.Context, stdout, stderr io.Writer, o sprtOptions) error {
	key, err := keyFrom(o.key, "ORRERY_ADMIN_KEY")
	if err != nil {
		return err
	}
	if o.server == "" {
		o.server = "127.0.0.1:7070"
	}
	conn, err := dial(o.server)
	if err != nil {
		return err
	}
	defer conn.Close()
	if key != "" {
		ctx = botladder.Key(ctx, key)
	}
	client := orreryv1.NewSPRTServiceClient(conn)
	var t *orreryv1.SPRT
	switch {
	case o.stop != "":
		resp, err := client.StopSPRT(ctx, &orreryv1.StopSPRTRequest{SprtId: o.stop})
		if err != nil {
			return err
		}
		t = resp.GetSprt()
	case o.follow != "":
		resp, err := client.GetSPRT(ctx, &orreryv1.GetSPRTRequest{SprtId: o.follow})
		if err != nil {
			return err
		}
		t = resp.GetSprt()
	default:
		req, err := sprtRequest(o)
		if err != nil {
			return err
		}
		resp, err := client.StartSPRT(ctx, req)
		if err != nil {
			return err
		}
		t = resp.GetSprt()
		fmt.Fprintf(stderr, "orrery sprt: the server runs test %s; Ctrl-C stops following it, not the test "+
			"(orrery sprt --server %s --follow %s follows it again, --stop %s ends it)\n", t.GetSprtId(), o.server, t.GetSprtId(), t.GetSprtId())
	}
	started := time.Now()
	line := newSPRTProgress(stderr, !o.noProgress)
	if t.GetStatus() == orreryv1.SPRTStatus_SPRT_STATUS_RUNNING {
		watch, err := client.WatchSPRT(ctx, &orreryv1.WatchSPRTRequest{SprtId: t.GetSprtId()})
		if err != nil {
			return err
		}
		for t.GetStatus() == orreryv1.SPRTStatus_SPRT_STATUS_RUNNING {
			msg, err := watch.Recv()
			if err != nil {
				line.finish()
				return fmt.Errorf("following test %s (it goes on on the server: orrery sprt --server %s --follow %s follows it again): %w",
					t.GetSprtId(), o.server, t.GetSprtId(), err)
			}
			t = msg.GetSprt()
			if t.GetPairs() > 0 {
				line.show(statusOf(t))
			}
		}
	}
	line.finish()
	full, err := client.GetSPRT(ctx, &orreryv1.GetSPRTRequest{SprtId: t.GetSprtId()})
	if err != nil {
		return err
	}
	t = full.GetSprt()
	if o.pairsPath != "" {
		if err := writePairs(o.pairsPath, t.GetPairList()); err != nil {
			return err
		}
	}
	if t.GetStatus() == orreryv1.SPRTStatus_SPRT_STATUS_FAILED {
		return fmt.Errorf("test %s failed after %d games: %s", t.GetSprtId(), t.GetGames(), t.GetError())
	}
	res := resultOf(t, time.Since(started))
	if o.asJSON {
		return printJSON(stdout, res)
	}
	printSPRT(stdout, res)
	return nil
}

// sprtRequest is the StartSPRT of the flags: the server checks the names and fills the rest.
func sprtRequest(o sprtOptions) (*orreryv1.StartSPRTRequest, error) {
	if o.game == "" || o.candidate == "" || o.baseline == "" {
		return nil, usagef("--game, --candidate and --baseline are required")
	}
	if err := o.bounds.Check(); err != nil {
		return nil, usagef("%v", err)
	}
	if o.maxGames < 0 || o.parallel < 0 {
		return nil, usagef("--max-games and --parallel must not be negative")
	}
	req := &orreryv1.StartSPRTRequest{
		Game: o.game, Candidate: o.candidate, Baseline: o.baseline, Seats: int32(o.seats),
		Elo0: o.bounds.Elo0, Elo1: &o.bounds.Elo1, Alpha: &o.bounds.Alpha, Beta: &o.bounds.Beta,
		MaxGames: int32(o.maxGames), Parallel: int32(o.parallel), Options: o.options,
		CandidateVersion: int32(o.candidateVersion), BaselineVersion: int32(o.baselineVersion),
	}
	if o.opponents != "" {
		for _, name := range strings.Split(o.opponents, ",") {
			req.Opponents = append(req.Opponents, strings.TrimSpace(name))
		}
	}
	if o.seeded {
		req.Seed = &o.seed
	}
	if o.perMove > 0 {
		req.Clock = &orreryv1.Clock{PerMove: durationpb.New(o.perMove)}
	}
	return req, nil
}

// statusOf is a test's state as the progress line takes it.
func statusOf(t *orreryv1.SPRT) sprt.Status {
	return sprt.Status{Pairs: int(t.GetPairs()), Games: int(t.GetGames()), LLR: t.GetLlr(), Lower: t.GetLlrLower(), Upper: t.GetLlrUpper(),
		Elo: t.GetElo(), EloLow: t.GetEloLow(), EloHi: t.GetEloHigh(), LOS: t.GetLos(), Decision: sprt.Decision(t.GetDecision())}
}

// resultOf is the printed result of a server's test.
func resultOf(t *orreryv1.SPRT, wall time.Duration) sprtResult {
	res := sprtResult{
		SprtID: t.GetSprtId(), Status: strings.ToLower(strings.TrimPrefix(t.GetStatus().String(), "SPRT_STATUS_")),
		Game: t.GetGame(), Candidate: t.GetCandidate(), Baseline: t.GetBaseline(), Opponents: t.GetOpponents(),
		CandidateVersion: int(t.GetCandidateVersion()), BaselineVersion: int(t.GetBaselineVersion()),
		Seats: int(t.GetSeats()), Seed: t.GetSeed(), Elo0: t.GetElo0(), Elo1: t.GetElo1(), Alpha: t.GetAlpha(), Beta: t.GetBeta(),
		MaxGames: int(t.GetMaxGames()), Decision: sprt.Decision(t.GetDecision()), Games: int(t.GetGames()), Pairs: int(t.GetPairs()),
		LLR: round(t.GetLlr(), 4), LLRLower: round(t.GetLlrLower(), 4), LLRUpper: round(t.GetLlrUpper(), 4),
		Elo: round(t.GetElo(), 2), EloLow: round(t.GetEloLow(), 2), EloHigh: round(t.GetEloHigh(), 2), LOS: round(t.GetLos(), 4),
		WallSeconds: round(wall.Seconds(), 3),
	}
	for _, c := range t.GetPairScores() {
		res.PairScores = append(res.PairScores, int(c))
	}
	return res
}

// writePairs writes a server's counted pairs as --pairs lines, with their matches.
func writePairs(path string, pairs []*orreryv1.SPRTPair) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, p := range pairs {
		line := struct {
			sprt.Pair
			CandidateMatch string `json:"candidate_match"`
			BaselineMatch  string `json:"baseline_match"`
		}{Pair: sprt.Pair{Deal: int(p.GetDeal()), Seat: int(p.GetSeat())}, CandidateMatch: p.GetCandidateMatchId(), BaselineMatch: p.GetBaselineMatchId()}
		for _, r := range p.GetCandidateRanks() {
			line.Candidate = append(line.Candidate, int(r))
		}
		for _, r := range p.GetBaselineRanks() {
			line.Baseline = append(line.Baseline, int(r))
		}
		if err := enc.Encode(line); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
