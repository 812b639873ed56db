package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// tournamentsOptions are the flags of orrery tournaments.
type tournamentsOptions struct {
	server string
	limit  int
	asJSON bool
}

func newTournamentsCmd() *cobra.Command {
	var o tournamentsOptions
	cmd := &cobra.Command{
		Use:   "tournaments",
		Short: "list a server's tournaments, running and finished",
		Long: `List the tournaments a server runs or has recorded, newest first, with how far each has gone. ` +
			`'orrery tournament --follow ID' follows a running one to its end (after Ctrl-C stopped ` +
			`following it, say) and prints its standings, as does a finished one.`,
		Example: `  orrery tournaments
  orrery tournament --follow TOURNAMENT_ID --server 127.0.0.1:7070`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return listTournaments(cmd.Context(), cmd.OutOrStdout(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.server, "server", "127.0.0.1:7070", "the arena at `ADDR`")
	f.IntVar(&o.limit, "limit", 20, "at most this many tournaments (1-500)")
	f.BoolVar(&o.asJSON, "json", false, "print the ListTournaments response as JSON")
	return cmd
}

func listTournaments(ctx context.Context, stdout io.Writer, o tournamentsOptions) error {
	if o.limit < 1 || o.limit > 500 {
		return usagef("--limit %d: want 1 to 500", o.limit)
	}
	conn, err := dial(o.server)
	if err != nil {
		return err
	}
	defer conn.Close()
	resp, err := orreryv1.NewTournamentServiceClient(conn).ListTournaments(ctx, &orreryv1.ListTournamentsRequest{PageSize: int32(o.limit)})
	if err != nil {
		return err
	}
	if o.asJSON {
		return printProto(stdout, resp)
	}
	printTournaments(stdout, resp.GetTournaments(), time.Now())
	if resp.GetNextPageToken() != "" {
		fmt.Fprintf(stdout, "(more than %d: --limit N shows more)\n", o.limit)
	}
	return nil
}

func printTournaments(w io.Writer, ts []*orreryv1.Tournament, now time.Time) {
	if len(ts) == 0 {
		fmt.Fprintln(w, "no tournaments (orrery tournament --server ADDR starts one)")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "tournament\tgame\tstate\tmatches\tentrants")
	for _, t := range ts {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.GetTournamentId(), t.GetGame(), tournamentState(t, now),
			tournamentProgress(t), strings.Join(t.GetEntrants(), ", "))
	}
	tw.Flush()
}

// tournamentState is "running, 3m", "finished 5m ago" or "recorded 1h ago".
func tournamentState(t *orreryv1.Tournament, now time.Time) string {
	switch {
	case t.GetStatus() != orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED:
		return "running, " + ago(now.Sub(t.GetStarted().AsTime()))
	case t.GetRecorded():
		return "recorded " + ago(now.Sub(t.GetFinished().AsTime())) + " ago"
	}
	return "finished " + ago(now.Sub(t.GetFinished().AsTime())) + " ago"
}

// tournamentProgress is "12 of 40 ended, 4 running", or the count of a finished one.
func tournamentProgress(t *orreryv1.Tournament) string {
	if t.GetStatus() == orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
		return fmt.Sprint(t.GetMatchesEnded())
	}
	s := fmt.Sprintf("%d of %d ended", t.GetMatchesEnded(), t.GetMatchesTotal())
	if n := t.GetMatchesRunning(); n > 0 {
		s += fmt.Sprintf(", %d running", n)
	}
	return s
}
