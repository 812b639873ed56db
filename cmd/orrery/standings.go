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
	"github.com/orrery/orrery/service/ladder"
)

// standingsOptions are the flags of orrery standings.
type standingsOptions struct {
	server, game string
	top          int
	noHouse      bool
	asJSON       bool
	watch        time.Duration
}

func newStandingsCmd() *cobra.Command {
	var o standingsOptions
	cmd := &cobra.Command{
		Use:   "standings",
		Short: "print a server's ladder leaderboard",
		Long: `Print a server's ladder leaderboard: one table per game, ranked by the conservative ` +
			`score mu - 3 sigma (OpenSkill ratings).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return standings(cmd.Context(), cmd.OutOrStdout(), o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.server, "server", "127.0.0.1:7070", "the arena at `ADDR`")
	f.StringVar(&o.game, "game", "", "only the game `G` (default: every game)")
	f.IntVar(&o.top, "top", 20, "bots per game")
	f.BoolVar(&o.noHouse, "no-house", false, "leave out the house bots")
	f.BoolVar(&o.asJSON, "json", false, "print the leaderboard as JSON")
	f.DurationVar(&o.watch, "watch", 0, "look again every `2s` (or any interval) until interrupted, redrawing when the board changes")
	return cmd
}

// standings prints a server's ladder leaderboard: one table per game, ranked by the
// conservative score mu - 3 sigma.
func standings(ctx context.Context, stdout io.Writer, o standingsOptions) error {
	conn, client, err := ladderClient(o.server)
	if err != nil {
		return err
	}
	defer conn.Close()
	// With --watch the board is drawn again only when it changed: in place on a terminal,
	// below the last one elsewhere (and always below for --json, which a program reads).
	scr := newScreen(stdout)
	if o.asJSON {
		scr.tty = false
	}
	for {
		resp, err := client.GetLeaderboard(ctx, &orreryv1.GetLeaderboardRequest{Game: o.game, PageSize: int32(o.top), ExcludeHouse: o.noHouse})
		if err != nil {
			return err
		}
		var b strings.Builder
		if o.asJSON {
			if err := printProto(&b, resp); err != nil {
				return err
			}
		} else {
			printLeaderboard(&b, resp.GetEntries())
		}
		scr.draw(b.String())
		if o.watch <= 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(o.watch):
		}
	}
}

func printLeaderboard(w io.Writer, entries []*orreryv1.LeaderboardEntry) {
	if len(entries) == 0 {
		fmt.Fprintln(w, "no rated bots yet: ladder matches are rated as they finish")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	game := ""
	for _, e := range entries {
		if e.GetGame() != game {
			if game != "" {
				fmt.Fprintln(tw)
			}
			game = e.GetGame()
			fmt.Fprintf(tw, "%s\n", game)
			fmt.Fprintln(tw, "rank\tbot\tscore\tmu ± sigma\tgames\twins\tlast match\t")
		}
		name := e.GetBot()
		switch {
		case e.GetRevoked():
			name += " (revoked)"
		case e.GetPaused():
			name += " (paused)"
		case e.GetConnected():
			name += " *"
		}
		score := fmt.Sprintf("%.2f", e.GetScore())
		if e.GetProvisional() {
			score += "?"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.2f ± %.2f\t%d\t%d\t%s\t\n", e.GetRank(), name, score, e.GetMu(), e.GetSigma(),
			e.GetGames(), e.GetWins(), e.GetLastMatchId())
	}
	tw.Flush()
	fmt.Fprintf(w, "\nscore = mu - 3 sigma; ? provisional (sigma above %g: too few matches to read much into); * connected now; 'orrery replay ID --server ADDR' shows a match\n", ladder.ProvisionalSigma)
}
