package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/service/sprt"
)

// sprtOptions are the flags of orrery sprt.
type sprtOptions struct {
	game, candidate, baseline, opponents string
	seats                                int
	bounds                               sprt.Bounds
	maxGames, parallel                   int
	seed                                 uint64
	seeded, asJSON, noProgress           bool
	pairsPath                            string
	options                              optionFlags
	// On a server (sprt_remote.go): its address, a test to follow or stop, the admin key, and
	// the matches' time per move.
	server, follow, stop, key         string
	perMove                           time.Duration
	candidateVersion, baselineVersion int
}

// sprtResult is the --json output.
type sprtResult struct {
	SprtID    string `json:"sprt_id,omitempty"` // a server's test
	Status    string `json:"status,omitempty"`  // a server's test: finished or stopped
	Game      string `json:"game"`
	Candidate string `json:"candidate"`
	Baseline  string `json:"baseline"`
	// A server's test of hosted bots: the module versions it plays.
	CandidateVersion int           `json:"candidate_version,omitempty"`
	BaselineVersion  int           `json:"baseline_version,omitempty"`
	Opponents        []string      `json:"opponents"`
	Seats            int           `json:"seats"`
	Seed             uint64        `json:"seed,string"` // a string: 64 bits do not fit a JSON number everywhere
	Elo0             float64       `json:"elo0"`
	Elo1             float64       `json:"elo1"`
	Alpha            float64       `json:"alpha"`
	Beta             float64       `json:"beta"`
	MaxGames         int           `json:"max_games"`
	Decision         sprt.Decision `json:"decision"` // H1, H0 or max_games
	Games            int           `json:"games"`
	Pairs            int           `json:"pairs"`
	LLR              float64       `json:"llr"`
	LLRLower         float64       `json:"llr_lower"`
	LLRUpper         float64       `json:"llr_upper"`
	Elo              float64       `json:"elo"`
	EloLow           float64       `json:"elo_low"`  // the 95% confidence interval
	EloHigh          float64       `json:"elo_high"` // of elo
	LOS              float64       `json:"los"`
	PairScores       []int         `json:"pair_scores"` // pairs by score j/(4(seats-1)), j = 0, 1, ...
	WallSeconds      float64       `json:"wall_seconds"`
}

func newSPRTCmd() *cobra.Command {
	o := sprtOptions{options: optionFlags{}}
	cmd := &cobra.Command{
		Use:   "sprt --game G --candidate A --baseline B",
		Short: "test whether one bot is stronger than another, stopping when the evidence decides",
		Long: `Run a sequential probability ratio test (GSPRT, as fishtest runs for chess engines) of the ` +
			`candidate against the baseline, in process. Each deal (seed) is played twice, once with the ` +
			`candidate and once with the baseline in the same seat, against the same opponents on the same ` +
			`dice; the tested seat rotates across deals. A pair scores (1 + points(A) - points(B)) / 2, a ` +
			`seat's points being (seats - rank) / (seats - 1). The test stops when the log-likelihood ratio ` +
			`of H1 (elo >= elo1) against H0 (elo <= elo0) leaves its bounds, or at --max-games. A progress ` +
			`line on stderr shows games, LLR with its bounds, Elo with its 95% CI and the likelihood of ` +
			`superiority. docs/strength.md has the math.

With --server, that server runs the test (SPRTService) among its registered bots (seated on ` +
			`their ladder streams), hosted bots and built-in bots, and this command follows it: Ctrl-C ` +
			`stops following, not the test; --follow ID follows it again and --stop ID ends it. The ` +
			`replays of its matches open when it has ended; the web page #/sprt/ID follows it too.`,
		Example: `  orrery sprt --game icetraders --candidate mcts --baseline greedy
  orrery sprt --game planet --candidate mcts --baseline greedy --opponents greedy,random --elo0 0 --elo1 20 --json
  orrery sprt --server 127.0.0.1:7070 --game icetraders --candidate mybot-v2 --baseline mybot-v1 --opponents greedy
  orrery sprt --server 127.0.0.1:7070 --follow SPRT_ID`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.seeded = cmd.Flags().Changed("seed")
			return runSPRT(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.game, "game", "", "the game `G` (see orrery games)")
	f.StringVar(&o.candidate, "candidate", "", "the built-in bot `A` under test")
	f.StringVar(&o.baseline, "baseline", "", "the built-in bot `B` it is measured against")
	f.StringVar(&o.opponents, "opponents", "", "comma-separated built-in `BOTS` in the other seats, in order from the seat after the tested one; one name fills them all (default: the baseline)")
	f.IntVar(&o.seats, "seats", 0, "`K` seats a game (default: one per listed opponent plus one, or 4 within the game's range)")
	f.Float64Var(&o.bounds.Elo0, "elo0", 0, "H0: the candidate is at most `ELO` stronger")
	f.Float64Var(&o.bounds.Elo1, "elo1", 10, "H1: the candidate is at least this many Elo stronger")
	f.Float64Var(&o.bounds.Alpha, "alpha", 0.05, "the chance of accepting H1 when H0 holds")
	f.Float64Var(&o.bounds.Beta, "beta", 0.05, "the chance of accepting H0 when H1 holds")
	f.IntVar(&o.maxGames, "max-games", 10000, "stop undecided after `N` games (two a pair; 0: no limit)")
	f.IntVar(&o.parallel, "parallel", 0, "`P` pairs played at once (default: one per CPU)")
	f.Uint64Var(&o.seed, "seed", 0, "the test's seed `N`: every deal follows from it (default: drawn at random)")
	f.BoolVar(&o.asJSON, "json", false, "print the result as JSON")
	f.BoolVar(&o.noProgress, "no-progress", false, "print no progress line")
	f.StringVar(&o.pairsPath, "pairs", "", "write each pair, in deal order, as a JSON line to `FILE`")
	f.Var(o.options, "option", "game option name=value (repeatable)")
	f.StringVar(&o.server, "server", "", "have the server at `ADDR` run the test, among its registered, hosted and built-in bots (default: built-in bots in process)")
	f.StringVar(&o.follow, "follow", "", "follow the server's test `ID` to its end (with --server; default 127.0.0.1:7070)")
	f.StringVar(&o.stop, "stop", "", "end the server's running test `ID` undecided (with --server; default 127.0.0.1:7070)")
	f.StringVar(&o.key, "key", "", "with --server: its admin `KEY`, if it has one (default: env ORRERY_ADMIN_KEY)")
	f.DurationVar(&o.perMove, "per-move", 0, "with --server: each decision's time `D` (default: the server's)")
	f.IntVar(&o.candidateVersion, "candidate-version", 0, "with --server and a hosted candidate: its module version `N` (default: the newest)")
	f.IntVar(&o.baselineVersion, "baseline-version", 0, "with --server and a hosted baseline: its module version `N` (default: the newest)")
	return cmd
}

// runSPRT checks the flags, plays the test and prints its result.
func runSPRT(ctx context.Context, stdout, stderr io.Writer, o sprtOptions) error {
	switch {
	case o.follow != "" && o.stop != "":
		return usagef("--follow and --stop name one test each; give one")
	case o.follow != "" || o.stop != "":
		if o.game != "" || o.candidate != "" || o.baseline != "" {
			return usagef("--follow and --stop name a test the server already runs; they take no --game, --candidate or --baseline")
		}
		return remoteSPRT(ctx, stdout, stderr, o)
	case o.server != "":
		return remoteSPRT(ctx, stdout, stderr, o)
	}
	game, pairing, err := parseSPRT(o)
	if err != nil {
		return err
	}
	if o.parallel == 0 {
		o.parallel = runtime.GOMAXPROCS(0)
	}
	if o.parallel < 1 {
		return usagef("--parallel must be positive")
	}
	if err := o.bounds.Check(); err != nil {
		return usagef("%v", err)
	}
	if o.maxGames < 0 {
		return usagef("--max-games must not be negative")
	}
	cfg := sprt.Config{Bounds: o.bounds, MaxGames: o.maxGames, Parallel: o.parallel}
	line := newSPRTProgress(stderr, !o.noProgress)
	cfg.Progress = line.show
	if o.pairsPath != "" {
		f, err := os.Create(o.pairsPath)
		if err != nil {
			return err
		}
		defer f.Close()
		enc := json.NewEncoder(f)
		cfg.Played = func(p sprt.Pair) {
			if err := enc.Encode(p); err != nil && !errors.Is(err, os.ErrClosed) {
				fmt.Fprintln(stderr, "orrery sprt: --pairs:", err)
			}
		}
	}
	started := time.Now()
	st, err := sprt.Run(ctx, pairing, cfg, localPlayer(game, o.options))
	line.finish()
	if err != nil {
		return err
	}
	res := sprtResult{
		Game: game, Candidate: pairing.Candidate, Baseline: pairing.Baseline, Opponents: pairing.Opponents,
		Seats: pairing.Seats(), Seed: pairing.Seed, Elo0: o.bounds.Elo0, Elo1: o.bounds.Elo1,
		Alpha: o.bounds.Alpha, Beta: o.bounds.Beta, MaxGames: o.maxGames, Decision: st.Decision,
		Games: st.Games, Pairs: st.Pairs, LLR: round(st.LLR, 4), LLRLower: round(st.Lower, 4), LLRUpper: round(st.Upper, 4),
		Elo: round(st.Elo, 2), EloLow: round(st.EloLow, 2), EloHigh: round(st.EloHi, 2), LOS: round(st.LOS, 4),
		PairScores: st.Counts, WallSeconds: round(time.Since(started).Seconds(), 3),
	}
	if o.asJSON {
		return printJSON(stdout, res)
	}
	printSPRT(stdout, res)
	return nil
}

// parseSPRT checks the bots and seats against the game.
func parseSPRT(o sprtOptions) (string, sprt.Pairing, error) {
	if o.game == "" || o.candidate == "" || o.baseline == "" {
		return "", sprt.Pairing{}, usagef("--game, --candidate and --baseline are required")
	}
	g, err := engine.Lookup(o.game)
	if err != nil {
		return "", sprt.Pairing{}, err
	}
	info := g.Info()
	opponents := []string{o.baseline}
	if o.opponents != "" {
		opponents = strings.Split(o.opponents, ",")
	}
	for _, name := range append([]string{o.candidate, o.baseline}, opponents...) {
		if _, err := builtin.New(o.game, strings.TrimSpace(name), 0); err != nil {
			return "", sprt.Pairing{}, err
		}
	}
	seats := o.seats
	switch {
	case seats == 0 && len(opponents) > 1:
		seats = 1 + len(opponents)
	case seats == 0:
		seats = max(info.MinSeats, min(4, info.MaxSeats))
	}
	if seats < info.MinSeats || seats > info.MaxSeats {
		return "", sprt.Pairing{}, fmt.Errorf("%s takes %d to %d seats; --seats %d", o.game, info.MinSeats, info.MaxSeats, seats)
	}
	switch {
	case len(opponents) == 1:
		for len(opponents) < seats-1 {
			opponents = append(opponents, opponents[0])
		}
	case len(opponents) != seats-1:
		return "", sprt.Pairing{}, fmt.Errorf("--opponents lists %d bots for the %d other seats (one name fills them all)", len(opponents), seats-1)
	}
	for i := range opponents {
		opponents[i] = strings.TrimSpace(opponents[i])
	}
	p := sprt.Pairing{Candidate: o.candidate, Baseline: o.baseline, Opponents: opponents, Seed: o.seed}
	if !o.seeded {
		var b [8]byte
		rand.Read(b[:])
		p.Seed = binary.BigEndian.Uint64(b[:])
	}
	return o.game, p, nil
}

// localPlayer plays a test's games in process with built-in bots, as the win-rate tests do.
func localPlayer(game string, options map[string]string) sprt.Player {
	return func(ctx context.Context, g sprt.Game) ([]int, error) {
		seats := make([]builtin.Seat, len(g.Seats))
		for s, e := range g.Seats {
			seats[s] = builtin.Seat{Bot: e.Bot, Seed: e.Seed}
		}
		r, err := builtin.Play(ctx, game, engine.Config{Seed: g.Seed, Options: options}, seats)
		return r.Ranks, err
	}
}

func printSPRT(w io.Writer, r sprtResult) {
	fmt.Fprintf(w, "%s: %s (candidate) against %s (baseline), %d seats, opponents %s, seed %d\n",
		r.Game, r.Candidate, r.Baseline, r.Seats, strings.Join(r.Opponents, ","), r.Seed)
	fmt.Fprintf(w, "H0 elo <= %g, H1 elo >= %g, alpha %g, beta %g\n", r.Elo0, r.Elo1, r.Alpha, r.Beta)
	switch {
	case r.Status == "stopped":
		fmt.Fprintf(w, "stopped undecided after %d games (%d pairs)\n", r.Games, r.Pairs)
	case r.Decision == sprt.AcceptH1:
		fmt.Fprintf(w, "H1 accepted after %d games (%d pairs): the candidate is stronger\n", r.Games, r.Pairs)
	case r.Decision == sprt.AcceptH0:
		fmt.Fprintf(w, "H0 accepted after %d games (%d pairs): the candidate is not stronger by elo1\n", r.Games, r.Pairs)
	default:
		fmt.Fprintf(w, "undecided after %d games (%d pairs): the --max-games budget ran out\n", r.Games, r.Pairs)
	}
	fmt.Fprintf(w, "LLR %.3f [%.3f, %.3f]\n", r.LLR, r.LLRLower, r.LLRUpper)
	fmt.Fprintf(w, "Elo %+.1f [95%% CI %+.1f, %+.1f], LOS %.1f%%\n", r.Elo, r.EloLow, r.EloHigh, 100*r.LOS)
	steps := len(r.PairScores) - 1
	parts := make([]string, len(r.PairScores))
	for j, n := range r.PairScores {
		parts[j] = fmt.Sprintf("%s: %d", fraction(j, steps), n)
	}
	fmt.Fprintf(w, "pairs by score: %s\n", strings.Join(parts, ", "))
	fmt.Fprintf(w, "wall time %s\n", time.Duration(r.WallSeconds*float64(time.Second)).Round(time.Millisecond))
}

// fraction writes j/n in lowest terms: "0", "1/6", "1/2", "1".
func fraction(j, n int) string {
	a, b := j, n
	for b != 0 {
		a, b = b, a%b
	}
	switch {
	case j == 0:
		return "0"
	case j == n:
		return "1"
	}
	return fmt.Sprintf("%d/%d", j/a, n/a)
}

// sprtProgress is the live line: redrawn in place on a terminal (at most ten times a
// second), a line at most every second elsewhere, and always at the decision.
type sprtProgress struct {
	w       io.Writer
	on, tty bool

	mu    sync.Mutex // guards the fields below
	drawn time.Time
	last  sprt.Status
}

func newSPRTProgress(w io.Writer, on bool) *sprtProgress {
	p := &sprtProgress{w: w, on: on}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *sprtProgress) show(st sprt.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = st
	every := time.Second
	if p.tty {
		every = time.Second / 10
	}
	if !p.on || (st.Decision == sprt.Undecided && time.Since(p.drawn) < every) {
		return
	}
	p.drawn = time.Now()
	if p.tty {
		fmt.Fprintf(p.w, "\r%s ", statusLine(st))
		return
	}
	fmt.Fprintln(p.w, "sprt:", statusLine(st))
}

func (p *sprtProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.on && p.tty && p.last.Pairs > 0 {
		fmt.Fprintln(p.w)
	}
}

// statusLine is one status as the progress line shows it.
func statusLine(st sprt.Status) string {
	d := "running"
	if st.Decision != sprt.Undecided {
		d = string(st.Decision)
	}
	return fmt.Sprintf("%d games, LLR %.2f [%.2f, %.2f], Elo %+.1f [%+.1f, %+.1f], LOS %.1f%%, %s",
		st.Games, st.LLR, st.Lower, st.Upper, st.Elo, st.EloLow, st.EloHi, 100*st.LOS, d)
}
