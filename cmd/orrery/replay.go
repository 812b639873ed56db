package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/seedcommit"
	"github.com/orrery/orrery/service/store"
)

func newReplayCmd() *cobra.Command {
	var server, dbPath string
	cmd := &cobra.Command{
		Use:   "replay MATCH_ID",
		Short: "print a finished match's replay and verify it",
		Long: `Print a finished match, step by step, from the database (or --server), and verify it: ` +
			`the seed matches the hash published at the start, and re-running the log with the engine ` +
			`gives the recorded result.`,
		Args: oneArg("MATCH_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return replay(cmd.Context(), cmd.OutOrStdout(), args[0], server, dbPath)
		},
	}
	cmd.Flags().StringVar(&server, "server", "", "read the replay from the arena at `ADDR`")
	cmd.Flags().StringVar(&dbPath, "db", "orrery.db", "read the replay from this database (when --server is not set)")
	return cmd
}

func replay(ctx context.Context, stdout io.Writer, id, server, dbPath string) error {
	var r *orreryv1.GetReplayResponse
	if server != "" {
		conn, err := dial(server)
		if err != nil {
			return err
		}
		defer conn.Close()
		if r, err = orreryv1.NewArenaServiceClient(conn).GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id}); err != nil {
			return err
		}
	} else {
		// A file that is not there is not created empty: the match is elsewhere.
		if file, ok := strings.CutPrefix(dbPath, "sqlite:"); ok || !strings.Contains(dbPath, "://") {
			if _, err := os.Stat(file); err != nil {
				return fmt.Errorf("no database %s to read match %s from: --db names the server's database file, "+
					"--server ADDR asks a running server", file, id)
			}
		}
		db, err := store.Open(dbPath)
		if err != nil {
			return err
		}
		defer db.Close()
		if r, err = service.LoadReplay(ctx, db, id); err != nil {
			if status.Code(err) == codes.NotFound {
				// Said plainly: the match is not in this file, which is not a server.
				return fmt.Errorf("no match %s in the database %s; it may be in another one (--db FILE) or on a "+
					"running server (orrery replay %s --server ADDR; orrery matches --server ADDR lists them)", id, store.Describe(dbPath), id)
			}
			return err
		}
	}
	m := r.GetMatch()
	fmt.Fprintf(stdout, "match %s: %s, %d seats, %s\n", m.GetMatchId(), m.GetGame(), m.GetSeats(), optionList(m.GetOptions()))
	for _, s := range m.GetSeatInfo() {
		fmt.Fprintf(stdout, "  seat %d: %s\n", s.GetSeat(), s.GetName())
	}
	fmt.Fprintf(stdout, "seed %d, published hash %s\n\n", r.GetSeed(), m.GetSeedHash())
	for i, s := range r.GetSteps() {
		note := ""
		if s.GetTimedOut() != orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED {
			note = "   (timed out: " + strings.ToLower(strings.TrimPrefix(s.GetTimedOut().String(), "TIMEOUT_POLICY_")) + ")"
		}
		if s.GetSeat() < 0 {
			fmt.Fprintf(stdout, "%5d  clock tick\n", i)
			continue
		}
		fmt.Fprintf(stdout, "%5d  seat %d: %s%s%s\n", i, s.GetSeat(), s.GetNotation(), note, measured(s))
		if n := s.GetNote(); n != "" {
			fmt.Fprintf(stdout, "         note %s\n", strconv.Quote(n))
		}
	}
	res := m.GetResult()
	fmt.Fprintf(stdout, "\nresult: %s\n\n%s\n", resultLine(res), r.GetFinalText())
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
			return fmt.Errorf("verification failed: re-run ranks %s, recorded %s", seatList(got), seatList(want))
		}
	}
	fmt.Fprintln(stdout, "verified: the seed matches its published hash and re-running the log gives the recorded result")
	return nil
}

// measured is what the server measured of a step, as the replay prints it: the think time
// and the answers rejected before it ("   [12.4 ms; rejected: illegal, unreadable]").
func measured(s *orreryv1.ReplayStep) string {
	var parts []string
	if s.GetThinkTime() != nil {
		parts = append(parts, thinkTime(s.GetThinkTime().AsDuration()))
	}
	if len(s.GetRejections()) > 0 {
		reasons := make([]string, len(s.GetRejections()))
		for i, c := range s.GetRejections() {
			reasons[i] = rejectName(c)
		}
		parts = append(parts, "rejected: "+strings.Join(reasons, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "   [" + strings.Join(parts, "; ") + "]"
}

// thinkTime says a think time to the tenth of a millisecond: "12.4 ms".
func thinkTime(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
}

// rejectName is a reject code in the words of its name: "stale decision".
func rejectName(c orreryv1.RejectCode) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(c.String(), "REJECT_CODE_")), "_", " ")
}
