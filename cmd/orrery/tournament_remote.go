package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/durationpb"

	botladder "github.com/orrery/orrery/bots/ladder"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	tour "github.com/orrery/orrery/service/tournament"
)

// remoteTournament creates req on the server at conn (TournamentService.CreateTournament),
// follows it with the progress bar as its matches end (WatchTournament), and prints the
// standings, or the JSON result. The server runs the schedule: interrupting this command
// stops following it, not the tournament.
func remoteTournament(ctx context.Context, stdout io.Writer, conn grpc.ClientConnInterface, addr string, req *orreryv1.CreateTournamentRequest, bar *progress, asJSON bool) error {
	client := orreryv1.NewTournamentServiceClient(conn)
	created, err := client.CreateTournament(ctx, req)
	if err != nil {
		return err
	}
	t := created.GetTournament()
	began := time.Now()
	bar.start(int(t.GetMatchesTotal()))
	done := 0
	watch, err := client.WatchTournament(ctx, &orreryv1.WatchTournamentRequest{TournamentId: t.GetTournamentId()})
	if err != nil {
		return err
	}
	for t.GetStatus() != orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
		msg, err := watch.Recv()
		if err != nil {
			return fmt.Errorf("following tournament %s (it goes on on the server; GetTournament shows it): %w", t.GetTournamentId(), err)
		}
		t = msg.GetTournament()
		if n := int(t.GetMatchesEnded()); n > done {
			bar.add(n - done)
			done = n
		}
	}
	bar.finish()
	final, err := client.GetTournament(ctx, &orreryv1.GetTournamentRequest{TournamentId: t.GetTournamentId()})
	if err != nil {
		return err
	}
	t = final.GetTournament()
	wall := t.GetFinished().AsTime().Sub(t.GetStarted().AsTime())
	if wall <= 0 {
		wall = time.Since(began)
	}
	res := tournamentResult{
		TournamentID: t.GetTournamentId(), Game: t.GetGame(), Format: formatName(t.GetFormat()), Seats: int(t.GetSeats()),
		Entrants: t.GetEntrants(), Bots: req.GetEntrants(), Duplicate: t.GetDuplicate(), Seed: t.GetSeed(),
		Matches: len(t.GetMatches()), WallSeconds: wall.Seconds(), MatchIDs: t.GetMatchIds(),
	}
	for _, s := range t.GetStandings() {
		res.Standings = append(res.Standings, tour.Standing{
			Place: int(s.GetPlace()), Entrant: s.GetEntrant(), Matches: int(s.GetMatches()), Wins: int(s.GetWins()),
			WinRate: s.GetWinRate(), WinLow: s.GetWinRateLow(), WinHigh: s.GetWinRateHigh(),
			MeanRank: s.GetMeanRank(), MeanRankCI: s.GetMeanRankCi(), Points: s.GetPoints(),
		})
	}
	if asJSON {
		return printJSON(stdout, res)
	}
	printTournament(stdout, res, addr, false, "")
	return nil
}

func formatName(f orreryv1.TournamentFormat) string {
	if f == orreryv1.TournamentFormat_TOURNAMENT_FORMAT_SWISS {
		return "swiss"
	}
	return "round-robin"
}

// tournamentFlags are the tournament command's flags, for a server-run tournament.
type tournamentFlags struct {
	game, bots, format  string
	games, seats        int
	duplicate, forfeit  bool
	parallel            int
	perMove             time.Duration
	options             map[string]string
	asJSON, noProgress  bool
	seed                *uint64
	seeded              bool
}

// serverTournament runs `orrery tournament --server ADDR`.
func serverTournament(ctx context.Context, stdout io.Writer, addr, key string, f tournamentFlags) error {
	if f.game == "" || f.bots == "" {
		return errors.New("--game and --bots are required")
	}
	req := &orreryv1.CreateTournamentRequest{
		Game: f.game, Seats: int32(f.seats), Entrants: strings.Split(f.bots, ","), Duplicate: f.duplicate,
		Games: int32(f.games), Parallel: int32(min(f.parallel, 64)), Options: f.options,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(f.perMove)},
	}
	switch f.format {
	case "round-robin":
		req.Format = orreryv1.TournamentFormat_TOURNAMENT_FORMAT_ROUND_ROBIN
	case "swiss":
		req.Format = orreryv1.TournamentFormat_TOURNAMENT_FORMAT_SWISS
	default:
		return fmt.Errorf("--format %q: want round-robin or swiss", f.format)
	}
	if f.forfeit {
		req.Absent = orreryv1.AbsentPolicy_ABSENT_POLICY_FORFEIT
	}
	if f.seeded {
		req.Seed = f.seed
	}
	conn, err := dial(addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	if key != "" {
		ctx = botladder.Key(ctx, key)
	}
	return remoteTournament(ctx, stdout, conn, addr, req, newProgress(os.Stderr, !f.noProgress), f.asJSON)
}

// flagSet reports whether the command line set flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
