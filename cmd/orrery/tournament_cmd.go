package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/spf13/cobra"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	botladder "github.com/orrery/orrery/bots/ladder"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	tour "github.com/orrery/orrery/service/tournament"
)

// tournamentOptions are the flags of orrery tournament.
type tournamentOptions struct {
	game, bots, format string
	games, seats       int
	duplicate          bool
	seed               uint64
	seeded             bool
	parallel           int
	asJSON             bool
	server, dbPath     string
	key                string
	perMove            time.Duration
	noProgress         bool
	forfeitAbsent      bool
	follow             string
	options            optionFlags
}

func newTournamentCmd() *cobra.Command {
	o := tournamentOptions{options: optionFlags{}}
	cmd := &cobra.Command{
		Use:   "tournament --game G --bots a,b,c,...",
		Short: "run a tournament and print the standings",
		Long: `Run a tournament on a round-robin or Swiss schedule, many matches in parallel, optionally in ` +
			`seat-rotated duplicate sets, and print the standings with confidence intervals. Without ` +
			`--server, built-in bots play on an in-process server (stored in --db). With --server, that ` +
			`server runs the tournament among its registered bots (by name, seated on their ladder ` +
			`streams) and built-in bots, and this command follows it with a progress bar.`,
		Example: `  orrery tournament --game icetraders --bots greedy,random,random,random --games 200 --duplicate
  orrery tournament --server 127.0.0.1:7070 --game icetraders --bots alice,bob,greedy,random --games 100
  orrery tournament --server 127.0.0.1:7070 --follow TOURNAMENT_ID   # one listed by orrery tournaments`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.seeded = cmd.Flags().Changed("seed")
			return tournament(cmd.Context(), cmd.OutOrStdout(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.game, "game", "", "the game `G` to play (see orrery games)")
	f.StringVar(&o.bots, "bots", "", "comma-separated `BOTS`, the entrants; a bot may enter several times: greedy,greedy,random")
	f.IntVar(&o.games, "games", 100, "matches to play")
	f.StringVar(&o.format, "format", "round-robin", "round-robin or swiss")
	f.IntVar(&o.seats, "seats", 0, "`K` seats per match (default: one per entrant, within the game's range)")
	f.BoolVar(&o.duplicate, "duplicate", false, "seat-rotated duplicate sets: each seed played once per rotation of the seats, cancelling seat and dice luck")
	f.Uint64Var(&o.seed, "seed", 0, "the tournament seed `N` (default: drawn at random)")
	f.IntVar(&o.parallel, "parallel", 0, "`P` matches played at once (default: 4 per CPU)")
	f.BoolVar(&o.asJSON, "json", false, "print the result as JSON")
	f.StringVar(&o.server, "server", "", "have the server at `ADDR` run the tournament, among its registered bots and built-in bots (default: built-in bots on an in-process server)")
	f.BoolVar(&o.forfeitAbsent, "forfeit-absent", false, "with --server: a registered bot not connected when its match starts forfeits it (default: its clock runs)")
	f.StringVar(&o.dbPath, "db", "tournaments.db", `in-process server: store matches and the tournament here ("" for memory only)`)
	f.StringVar(&o.key, "key", "", "the server's admin `KEY`, if it has one (default: env ORRERY_ADMIN_KEY)")
	f.DurationVar(&o.perMove, "per-move", 5*time.Second, "per-move time budget")
	f.BoolVar(&o.noProgress, "no-progress", false, "draw no progress bar")
	f.StringVar(&o.follow, "follow", "", "follow the server-run tournament `ID` to its end and print its standings (with --server; default 127.0.0.1:7070)")
	f.Var(o.options, "option", "game option name=value (repeatable)")
	return cmd
}

// tournament plays built-in bots against each other over gRPC, many matches in parallel, and
// prints the standings with confidence intervals.
func tournament(ctx context.Context, stdout io.Writer, o tournamentOptions) error {
	if o.parallel == 0 {
		o.parallel = 4 * runtime.GOMAXPROCS(0)
	}
	var err error
	if o.key, err = keyFrom(o.key, "ORRERY_ADMIN_KEY"); err != nil {
		return err
	}
	if o.follow != "" {
		if o.game != "" || o.bots != "" {
			return usagef("--follow follows a tournament the server already runs; it takes no --game or --bots")
		}
		if o.server == "" {
			o.server = "127.0.0.1:7070"
		}
		return resumeFollowing(ctx, stdout, o)
	}
	if o.server != "" {
		return serverTournament(ctx, stdout, o)
	}
	spec, err := parseTournament(o.game, o.bots, o.format, o.games, o.seats, o.parallel, o.duplicate)
	if err != nil {
		return err
	}
	spec.options = o.options
	spec.clock = &orreryv1.Clock{PerMove: durationpb.New(o.perMove)}
	spec.seed = o.seed
	if !o.seeded {
		var b [8]byte
		rand.Read(b[:])
		spec.seed = binary.BigEndian.Uint64(b[:])
	}

	conn, closeConn, err := connect("", arenaConfig{dbPath: o.dbPath, adminKey: o.key, ladder: &ladderOptions{}})
	if err != nil {
		return err
	}
	defer closeConn()
	if o.key != "" {
		ctx = botladder.Key(ctx, o.key)
	}

	bar := newProgress(os.Stderr, !o.noProgress)
	started := time.Now()
	ids, outcomes, err := runTournament(ctx, conn, spec, bar)
	bar.finish()
	if err != nil {
		return err
	}
	wall := time.Since(started)

	res := tournamentResult{
		Game: spec.game, Format: o.format, Seats: spec.seats, Entrants: spec.entrants, Bots: spec.bots,
		Duplicate: spec.duplicate, Seed: spec.seed, Matches: len(ids), WallSeconds: round(wall.Seconds(), 3),
		Standings: roundStandings(tour.Standings(spec.entrants, outcomes)), EndReasons: spec.ends.snapshot(), MatchIDs: ids,
		CrossTable: roundCross(tour.CrossTable(spec.entrants, outcomes)),
	}
	fmtName := orreryv1.TournamentFormat_TOURNAMENT_FORMAT_ROUND_ROBIN
	if spec.swiss {
		fmtName = orreryv1.TournamentFormat_TOURNAMENT_FORMAT_SWISS
	}
	rec, err := orreryv1.NewTournamentServiceClient(conn).RecordTournament(ctx, &orreryv1.RecordTournamentRequest{
		Game: spec.game, Format: fmtName, Seats: int32(spec.seats), Entrants: spec.entrants, Duplicate: spec.duplicate,
		Started: timestamppb.New(started), MatchIds: ids,
	})
	note := ""
	switch {
	case err == nil:
		res.TournamentID = rec.GetTournament().GetTournamentId()
	case status.Code(err) == codes.Unimplemented:
		note = "the server runs no ladder: the tournament is not recorded (its matches are)"
	default:
		note = fmt.Sprintf("the tournament is not recorded: %v", err)
	}
	if note != "" {
		fmt.Fprintln(os.Stderr, "orrery tournament:", note)
	}
	if o.asJSON {
		return printJSON(stdout, res)
	}
	printTournament(stdout, res, "", o.dbPath != "", o.dbPath)
	return nil
}
