package main

import (
	"context"
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

// remoteTournament creates req on the server at conn (TournamentService.CreateTournament)
// and follows it (followTournament). The server runs the schedule: interrupting this command
// stops following it, not the tournament.
func remoteTournament(ctx context.Context, stdout io.Writer, conn grpc.ClientConnInterface, addr string, req *orreryv1.CreateTournamentRequest, bar *progress, asJSON bool) error {
	client := orreryv1.NewTournamentServiceClient(conn)
	created, err := client.CreateTournament(ctx, req)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "orrery tournament: the server runs tournament %s; Ctrl-C stops following it, not the tournament "+
		"(orrery tournament --follow %s --server %s follows it again)\n", created.GetTournament().GetTournamentId(),
		created.GetTournament().GetTournamentId(), addr)
	return followTournament(ctx, stdout, client, created.GetTournament(), addr, req.GetEntrants(), bar, asJSON)
}

// resumeFollowing runs `orrery tournament --follow ID`: a server-run tournament, running or
// finished, followed to its end and printed as when it was created.
func resumeFollowing(ctx context.Context, stdout io.Writer, o tournamentOptions) error {
	conn, err := dial(o.server)
	if err != nil {
		return err
	}
	defer conn.Close()
	if o.key != "" {
		ctx = botladder.Key(ctx, o.key)
	}
	client := orreryv1.NewTournamentServiceClient(conn)
	got, err := client.GetTournament(ctx, &orreryv1.GetTournamentRequest{TournamentId: o.follow})
	if err != nil {
		return err
	}
	t := got.GetTournament()
	return followTournament(ctx, stdout, client, t, o.server, t.GetEntrants(), newProgress(os.Stderr, !o.noProgress), o.asJSON)
}

// followTournament follows t with the progress bar as its matches end (WatchTournament) and
// prints the standings, or the JSON result, once it has finished; bots are the entrants as
// asked for (the names the server resolved, for one followed again).
func followTournament(ctx context.Context, stdout io.Writer, client orreryv1.TournamentServiceClient, t *orreryv1.Tournament, addr string, bots []string, bar *progress, asJSON bool) error {
	began := time.Now()
	done := int(t.GetMatchesEnded())
	bar.start(int(t.GetMatchesTotal()))
	bar.add(done)
	if t.GetStatus() != orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
		watch, err := client.WatchTournament(ctx, &orreryv1.WatchTournamentRequest{TournamentId: t.GetTournamentId()})
		if err != nil {
			return err
		}
		for t.GetStatus() != orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
			msg, err := watch.Recv()
			if err != nil {
				return fmt.Errorf("following tournament %s (it goes on on the server: orrery tournament --follow %s --server %s follows it again, orrery tournaments lists them): %w",
					t.GetTournamentId(), t.GetTournamentId(), addr, err)
			}
			t = msg.GetTournament()
			if n := int(t.GetMatchesEnded()); n > done {
				bar.add(n - done)
				done = n
			}
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
		Entrants: t.GetEntrants(), Bots: bots, Duplicate: t.GetDuplicate(), Seed: t.GetSeed(),
		Matches: len(t.GetMatches()), WallSeconds: round(wall.Seconds(), 3), MatchIDs: t.GetMatchIds(),
		EndReasons: map[string]int{},
	}
	for _, m := range t.GetMatches() {
		res.EndReasons[endReason(m.GetEndReason())]++
	}
	for _, s := range t.GetStandings() {
		res.Standings = append(res.Standings, tour.Standing{
			Place: int(s.GetPlace()), Entrant: s.GetEntrant(), Matches: int(s.GetMatches()), Wins: int(s.GetWins()),
			WinRate: s.GetWinRate(), WinLow: s.GetWinRateLow(), WinHigh: s.GetWinRateHigh(),
			Share: s.GetWinShare(), ShareLow: s.GetWinShareLow(), ShareHigh: s.GetWinShareHigh(),
			MeanRank: s.GetMeanRank(), MeanRankCI: s.GetMeanRankCi(), Points: s.GetPoints(),
		})
	}
	res.Standings = roundStandings(res.Standings)
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

// serverTournament runs `orrery tournament --server ADDR`: the entrants are names the server
// resolves (registered bots, built-in bots).
func serverTournament(ctx context.Context, stdout io.Writer, o tournamentOptions) error {
	if o.game == "" || o.bots == "" {
		return usagef("--game and --bots are required")
	}
	req := &orreryv1.CreateTournamentRequest{
		Game: o.game, Seats: int32(o.seats), Entrants: strings.Split(o.bots, ","), Duplicate: o.duplicate,
		Games: int32(o.games), Parallel: int32(min(o.parallel, 64)), Options: o.options,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(o.perMove)},
	}
	switch o.format {
	case "round-robin":
		req.Format = orreryv1.TournamentFormat_TOURNAMENT_FORMAT_ROUND_ROBIN
	case "swiss":
		req.Format = orreryv1.TournamentFormat_TOURNAMENT_FORMAT_SWISS
	default:
		return usagef("--format %q: want round-robin or swiss", o.format)
	}
	if o.forfeitAbsent {
		req.Absent = orreryv1.AbsentPolicy_ABSENT_POLICY_FORFEIT
	}
	if o.seeded {
		req.Seed = &o.seed
	}
	conn, err := dial(o.server)
	if err != nil {
		return err
	}
	defer conn.Close()
	if o.key != "" {
		ctx = botladder.Key(ctx, o.key)
	}
	return remoteTournament(ctx, stdout, conn, o.server, req, newProgress(os.Stderr, !o.noProgress), o.asJSON)
}
