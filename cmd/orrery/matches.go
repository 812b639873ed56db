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

// matchesOptions are the flags of orrery matches.
type matchesOptions struct {
	server, game, bot, status string
	limit                     int
	asJSON                    bool
	abort, reason, key        string
	tokens                    string // a file of the seat tokens, for --abort without the admin key
}

func newMatchesCmd() *cobra.Command {
	var o matchesOptions
	cmd := &cobra.Command{
		Use:   "matches",
		Short: "list a server's live and finished matches",
		Long: `List a server's matches, newest first: live ones with how far they are, finished ones with ` +
			`how they ended. 'orrery watch MATCH_ID' follows one; 'orrery replay MATCH_ID' prints a finished one.`,
		Example: `  orrery matches --game planet --status live
  orrery matches --bot house-greedy --limit 5
  ORRERY_ADMIN_KEY=... orrery matches --abort MATCH_ID --reason "stuck"
  orrery matches --abort MATCH_ID --tokens match.txt   # the creator: every seat's token, or its creator token`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.abort != "" {
				return abortMatch(cmd.Context(), cmd.OutOrStdout(), o)
			}
			return matches(cmd.Context(), cmd.OutOrStdout(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.server, "server", "127.0.0.1:7070", "the arena at `ADDR`")
	f.StringVar(&o.game, "game", "", "only the game `G`")
	f.StringVar(&o.bot, "bot", "", "only matches in which a seat is `NAME` (a ladder bot, or a seat name)")
	f.StringVar(&o.status, "status", "all", "live, finished or all")
	f.IntVar(&o.limit, "limit", 20, "at most this many matches (1-500)")
	f.BoolVar(&o.asJSON, "json", false, "print the ListMatches (or AbortMatch) response as JSON")
	f.StringVar(&o.abort, "abort", "", "end the running match `ID` as aborted: with the server's admin key (--key), or as its creator (--tokens)")
	f.StringVar(&o.reason, "reason", "", "with --abort: why, as the result's detail (`TEXT`)")
	f.StringVar(&o.key, "key", "", "with --abort: the server's admin `KEY` (default: env ORRERY_ADMIN_KEY)")
	f.StringVar(&o.tokens, "tokens", "", "with --abort, without the admin key: a `FILE` of every seat's token, as 'seat N TOKEN' lines (what create prints) or one a line, or a 'creator TOKEN' line (CreateMatch's creator_token)")
	return cmd
}

func matches(ctx context.Context, stdout io.Writer, o matchesOptions) error {
	req := &orreryv1.ListMatchesRequest{Game: o.game, SeatName: o.bot}
	switch o.status {
	case "all":
	case "live":
		req.Status = orreryv1.MatchStatus_MATCH_STATUS_RUNNING
	case "finished":
		req.Status = orreryv1.MatchStatus_MATCH_STATUS_FINISHED
	default:
		return usagef("--status %q: want live, finished or all", o.status)
	}
	if o.limit < 1 || o.limit > 500 {
		return usagef("--limit %d: want 1 to 500", o.limit)
	}
	req.PageSize = int32(o.limit)
	conn, err := dial(o.server)
	if err != nil {
		return err
	}
	defer conn.Close()
	resp, err := orreryv1.NewArenaServiceClient(conn).ListMatches(ctx, req)
	if err != nil {
		return err
	}
	if o.asJSON {
		return printProto(stdout, resp)
	}
	printMatches(stdout, resp.GetMatches(), time.Now())
	return nil
}

// printMatches is one line per match: its id, game, state and seats.
func printMatches(w io.Writer, ms []*orreryv1.MatchSummary, now time.Time) {
	if len(ms) == 0 {
		fmt.Fprintln(w, "no matches: start one with 'orrery play --server ADDR', or run 'orrery serve' with house bots")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "match\tgame\tstate\tseats")
	for _, m := range ms {
		names := make([]string, len(m.GetSeatInfo()))
		for i, s := range m.GetSeatInfo() {
			names[i] = s.GetName()
			if names[i] == "" {
				names[i] = fmt.Sprintf("seat %d", s.GetSeat())
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.GetMatchId(), m.GetGame(), matchState(m, now), strings.Join(names, ", "))
	}
	tw.Flush()
}

// matchState is "live, ply 42, 3m" or "normal 5m ago".
func matchState(m *orreryv1.MatchSummary, now time.Time) string {
	if m.GetStatus() == orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
		return fmt.Sprintf("live, ply %d, %s", m.GetPly(), ago(now.Sub(m.GetCreated().AsTime())))
	}
	how := "finished"
	if m.GetResult() != nil {
		how = endReason(m.GetResult().GetReason())
	}
	if m.GetEnded() == nil {
		return how
	}
	return how + " " + ago(now.Sub(m.GetEnded().AsTime())) + " ago"
}

// ago is a duration rounded for a person: 12s, 5m, 3h, 2d.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(0, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}
