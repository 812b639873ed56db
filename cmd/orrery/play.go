package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots/house"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// optionFlags collects repeated --option k=v flags.
type optionFlags map[string]string

func (o optionFlags) String() string { return fmt.Sprint(map[string]string(o)) }
func (o optionFlags) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("option %q: want name=value", v)
	}
	o[k] = val
	return nil
}

// playResult is the --json output: everything but the match id, so a seeded run prints the
// same bytes every time.
type playResult struct {
	Game      string    `json:"game"`
	Bots      []string  `json:"bots"`
	Seed      uint64    `json:"seed"`
	SeedHash  string    `json:"seed_hash"`
	Ranks     []int32   `json:"ranks"`
	Scores    []float64 `json:"scores"`
	EndReason string    `json:"end_reason"`
	Detail    string    `json:"detail"`
	Decisions int64     `json:"decisions"`
}

func play(ctx context.Context, stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("play", flag.ExitOnError)
	game := fs.String("game", "", "game to play (see orrery games)")
	botList := fs.String("bots", "", "comma-separated built-in bots, one per seat: random,greedy,...")
	seed := fs.Uint64("seed", 0, "match seed (default: drawn at random)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	server := fs.String("server", "", "play on this server (default: an in-process server on loopback)")
	perMove := fs.Duration("per-move", 5*time.Second, "per-move time budget")
	options := optionFlags{}
	fs.Var(options, "option", "game option name=value (repeatable)")
	fs.Parse(args)
	if *game == "" || *botList == "" {
		return fmt.Errorf("--game and --bots are required")
	}
	seeded := false
	fs.Visit(func(f *flag.Flag) { seeded = seeded || f.Name == "seed" })

	conn, closeConn, err := connect(*server, arenaConfig{})
	if err != nil {
		return err
	}
	defer closeConn()
	m := house.Match{Game: *game, Bots: strings.Split(*botList, ","), Options: options,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(*perMove)}}
	if seeded {
		m.Seed = seed
	}
	out, err := house.Play(ctx, conn, m)
	if err != nil {
		return err
	}
	got, err := orreryv1.NewArenaServiceClient(conn).GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: out.MatchID})
	if err != nil {
		return err
	}
	res := out.Ended.GetResult()
	r := playResult{
		Game: *game, Bots: m.Bots, Seed: out.Ended.GetSeed(), SeedHash: out.Ended.GetSeedHash(),
		Ranks: res.GetRanks(), Scores: res.GetScores(), EndReason: endReason(res.GetReason()), Detail: res.GetDetail(),
		Decisions: got.GetMatch().GetPly(),
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	fmt.Fprintf(stdout, "%s, %d seats, seed %d (sha256 %s)\n\n", r.Game, len(r.Bots), r.Seed, r.SeedHash)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "seat\tbot\trank\tscore")
	for i, b := range r.Bots {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%g\n", i, b, r.Ranks[i], r.Scores[i])
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nended: %s (%s)\ndecisions: %d   match: %s\n", r.EndReason, r.Detail, r.Decisions, out.MatchID)
	return nil
}

func endReason(r orreryv1.EndReason) string {
	return strings.ToLower(strings.TrimPrefix(r.String(), "END_REASON_"))
}
