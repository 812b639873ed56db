package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/seedcommit"
	"github.com/orrery/orrery/service/store"
)

func replay(ctx context.Context, stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("replay", flag.ExitOnError)
	server := fs.String("server", "", "read the replay from this server")
	dbPath := fs.String("db", "orrery.db", "read the replay from this database (when --server is not set)")
	// Accept the match id before or after the flags.
	var id string
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		id, args = args[0], args[1:]
	}
	fs.Parse(args)
	if id == "" {
		id = fs.Arg(0)
	}
	if id == "" {
		return fmt.Errorf("usage: orrery replay MATCH_ID [--server ADDR | --db PATH]")
	}
	var r *orreryv1.GetReplayResponse
	if *server != "" {
		conn, err := dial(*server)
		if err != nil {
			return err
		}
		defer conn.Close()
		if r, err = orreryv1.NewArenaServiceClient(conn).GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id}); err != nil {
			return err
		}
	} else {
		db, err := store.Open(*dbPath)
		if err != nil {
			return err
		}
		defer db.Close()
		if r, err = service.LoadReplay(ctx, db, id); err != nil {
			return err
		}
	}
	m := r.GetMatch()
	fmt.Fprintf(stdout, "match %s: %s, %d seats, options %v\n", m.GetMatchId(), m.GetGame(), m.GetSeats(), m.GetOptions())
	for _, s := range m.GetSeatInfo() {
		fmt.Fprintf(stdout, "  seat %d: %s\n", s.GetSeat(), s.GetName())
	}
	fmt.Fprintf(stdout, "seed %d, published hash %s\n\n", r.GetSeed(), m.GetSeedHash())
	for i, s := range r.GetSteps() {
		note := ""
		if s.GetTimedOut() != orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED {
			note = "   (timed out: " + s.GetTimedOut().String() + ")"
		}
		if s.GetSeat() < 0 {
			fmt.Fprintf(stdout, "%5d  clock tick\n", i)
			continue
		}
		fmt.Fprintf(stdout, "%5d  seat %d: %s%s\n", i, s.GetSeat(), s.GetNotation(), note)
	}
	res := m.GetResult()
	fmt.Fprintf(stdout, "\nresult: ranks %v, scores %v, %s: %s\n\n%s\n", res.GetRanks(), res.GetScores(), endReason(res.GetReason()), res.GetDetail(), r.GetFinalText())
	return verify(stdout, r)
}

// verify checks the commitment and re-runs the log with the engine, as any third party can.
func verify(stdout io.Writer, r *orreryv1.GetReplayResponse) error {
	m := r.GetMatch()
	if err := seedcommit.Verify(m.GetSeedHash(), r.GetSeed(), r.GetSeedSalt()); err != nil {
		return err
	}
	st, err := engine.New(m.GetGame(), engine.Config{Seats: int(m.GetSeats()), Seed: r.GetSeed(), Options: m.GetOptions()})
	if err != nil {
		return err
	}
	for i, s := range r.GetSteps() {
		step := engine.Step{Seat: engine.Seat(s.GetSeat())}
		if s.GetSeat() >= 0 {
			if step.Action, err = st.ParseAction(s.GetNotation()); err != nil {
				return fmt.Errorf("step %d: %w", i, err)
			}
		}
		if err := engine.ApplyStep(st, step); err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
	}
	res := m.GetResult()
	if res.GetReason() == orreryv1.EndReason_END_REASON_NORMAL || res.GetReason() == orreryv1.EndReason_END_REASON_CAP {
		if !st.Terminal() {
			return fmt.Errorf("verification failed: the log does not reach the end")
		}
		got := st.Result().Ranks
		want := make([]int, len(res.GetRanks()))
		for i, r := range res.GetRanks() {
			want[i] = int(r)
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("verification failed: re-run ranks %v, recorded %v", got, want)
		}
	}
	fmt.Fprintln(stdout, "verified: the seed matches its published hash and re-running the log gives the recorded result")
	return nil
}
