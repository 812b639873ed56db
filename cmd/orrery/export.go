package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/episodes"
)

// exportOptions are the flags of orrery export.
type exportOptions struct {
	server, game, since, bots, out, format string
	limit                                  int
}

func newExportCmd() *cobra.Command {
	var o exportOptions
	cmd := &cobra.Command{
		Use:   "export",
		Short: "write a game's finished matches as training data (Parquet or JSON lines)",
		Long: `Write the finished matches of one game as training data: one row per decision, with the ` +
			`acting seat's observation tensor, the ids of its legal actions, the ids of the action it chose, ` +
			`and the final rewards (docs/training.md). Each row is the acting seat's own view, replayed from ` +
			`the match's log: it holds nothing that seat did not know. Running matches are left out.`,
		Example: `  orrery export --game planet --out planet.parquet
  orrery export --game icetraders --since 24h --bots house-mcts --out mcts.jsonl`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return export(cmd.Context(), cmd.OutOrStdout(), o, time.Now())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.server, "server", "127.0.0.1:7070", "the arena at `ADDR`")
	f.StringVar(&o.game, "game", "", "the game `G` (required: one file holds one game's tensors)")
	f.StringVar(&o.since, "since", "", "only matches that ended since `T`: an RFC 3339 time, or a duration back from now (24h)")
	f.StringVar(&o.bots, "bots", "", "only matches with a seat named one of `NAMES` (comma-separated), and only those seats' decisions")
	f.StringVar(&o.out, "out", "", "write to `FILE` (required)")
	f.StringVar(&o.format, "format", "", "`F`: parquet or jsonl (default: parquet for a .parquet FILE, else jsonl)")
	f.IntVar(&o.limit, "limit", 0, "at most `N` matches, newest first (0: all)")
	return cmd
}

func export(ctx context.Context, stdout io.Writer, o exportOptions, now time.Time) error {
	if o.game == "" || o.out == "" {
		return usagef("--game and --out are required")
	}
	filter := episodes.Filter{Game: o.game, Limit: o.limit}
	if o.limit < 0 {
		return usagef("--limit %d: want 0 or more", o.limit)
	}
	if o.since != "" {
		if d, err := time.ParseDuration(o.since); err == nil && d > 0 {
			filter.Since = now.Add(-d)
		} else if t, err := time.Parse(time.RFC3339, o.since); err == nil {
			filter.Since = t
		} else {
			return usagef("--since %q: want an RFC 3339 time (2026-12-01T00:00:00Z) or a duration (24h)", o.since)
		}
	}
	for _, b := range strings.Split(o.bots, ",") {
		if b = strings.TrimSpace(b); b != "" {
			filter.Bots = append(filter.Bots, b)
		}
	}
	format := o.format
	if format == "" {
		format = "jsonl"
		if strings.EqualFold(filepath.Ext(o.out), ".parquet") {
			format = "parquet"
		}
	}
	if format != "jsonl" && format != "parquet" {
		return usagef("--format %q: want parquet or jsonl", o.format)
	}
	conn, err := dial(o.server)
	if err != nil {
		return err
	}
	defer conn.Close()
	f, err := os.Create(o.out)
	if err != nil {
		return err
	}
	w := episodes.NewJSONLines(f)
	if format == "parquet" {
		w = episodes.NewParquet(f)
	}
	start := time.Now()
	st, err := episodes.Export(ctx, episodes.ClientSource(orreryv1.NewArenaServiceClient(conn)), filter, w)
	if err == nil {
		err = w.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(o.out)
		return err
	}
	secs := time.Since(start).Seconds()
	fmt.Fprintf(stdout, "exported %d matches, %d decisions to %s (%s) in %.1fs: %.0f decisions/s\n",
		st.Matches, st.Rows, o.out, format, secs, float64(st.Rows)/max(secs, 1e-9))
	return nil
}
