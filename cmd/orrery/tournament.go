package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"google.golang.org/grpc"

	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/sdk"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	tour "github.com/orrery/orrery/service/tournament"
)

// tournamentResult is the --json output.
type tournamentResult struct {
	TournamentID string          `json:"tournament_id,omitempty"`
	Game         string          `json:"game"`
	Format       string          `json:"format"`
	Seats        int             `json:"seats"`
	Entrants     []string        `json:"entrants"`
	Bots         []string        `json:"bots"`
	Duplicate    bool            `json:"duplicate"`
	Seed         uint64          `json:"seed,string"` // a string: 64 bits do not fit a JSON number everywhere
	Matches      int             `json:"matches"`
	WallSeconds  float64         `json:"wall_seconds"`
	Standings    []tour.Standing `json:"standings"`
	CrossTable   []tour.CrossRow `json:"cross_table,omitempty"` // head to head, for the matches played here
	EndReasons   map[string]int  `json:"end_reasons"`           // matches by how they ended: normal, cap, forfeit, aborted
	MatchIDs     []string        `json:"match_ids"`
}

// tournamentSpec is a parsed tournament command.
type tournamentSpec struct {
	game      string
	bots      []string // built-in bot of each entrant
	entrants  []string // their names in the matches: the bot's, numbered if it plays twice
	seats     int
	games     int
	swiss     bool
	duplicate bool
	seed      uint64
	parallel  int
	options   map[string]string
	clock     *orreryv1.Clock
	ends      endTally
}

// endTally counts matches by how they ended.
type endTally struct {
	mu     sync.Mutex // guards counts
	counts map[string]int
}

func (t *endTally) add(r orreryv1.EndReason) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counts == nil {
		t.counts = map[string]int{}
	}
	t.counts[endReason(r)]++
}

func (t *endTally) snapshot() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return maps.Clone(t.counts)
}

// parseTournament checks the command's flags against the game and its bots.
func parseTournament(game, botList, format string, games, seats, parallel int, duplicate bool) (*tournamentSpec, error) {
	if game == "" || botList == "" {
		return nil, usagef("--game and --bots are required")
	}
	g, err := engine.Lookup(game)
	if err != nil {
		return nil, err
	}
	info := g.Info()
	s := &tournamentSpec{game: game, games: games, duplicate: duplicate, parallel: parallel}
	switch format {
	case "round-robin":
	case "swiss":
		s.swiss = true
	default:
		return nil, fmt.Errorf("--format %q: want round-robin or swiss", format)
	}
	if games < 1 || parallel < 1 {
		return nil, errors.New("--games and --parallel must be positive")
	}
	s.bots = strings.Split(botList, ",")
	counts := map[string]int{}
	for _, b := range s.bots {
		if _, err := builtin.New(game, b, 0); err != nil {
			return nil, err
		}
		counts[b]++
	}
	seen := map[string]int{}
	for _, b := range s.bots {
		name := b
		if counts[b] > 1 {
			seen[b]++
			name = fmt.Sprintf("%s#%d", b, seen[b])
		}
		s.entrants = append(s.entrants, name)
	}
	s.seats = seats
	if s.seats == 0 {
		s.seats = min(len(s.bots), info.MaxSeats)
	}
	if s.seats < info.MinSeats || s.seats > info.MaxSeats {
		return nil, fmt.Errorf("%s takes %d to %d seats; --seats %d (list a bot several times to fill more seats)", game, info.MinSeats, info.MaxSeats, s.seats)
	}
	if s.seats > len(s.bots) {
		return nil, fmt.Errorf("--seats %d needs at least %d entrants; --bots lists %d", s.seats, s.seats, len(s.bots))
	}
	return s, nil
}

// runTournament plays the schedule with spec.parallel matches at a time, and returns the match
// ids and outcomes in schedule order.
func runTournament(ctx context.Context, conn grpc.ClientConnInterface, spec *tournamentSpec, bar *progress) ([]string, []tour.Outcome, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	per := 1
	if spec.duplicate {
		per = spec.seats
	}
	total := (spec.games + per - 1) / per * per
	bar.start(total)
	var ids []string
	var outcomes []tour.Outcome
	runRound := func(lineups []tour.Lineup) error {
		n := len(ids)
		ids = append(ids, make([]string, len(lineups))...)
		outcomes = append(outcomes, make([]tour.Outcome, len(lineups))...)
		jobs := make(chan int)
		errs := make(chan error, spec.parallel)
		var wg sync.WaitGroup
		for range min(spec.parallel, len(lineups)) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range jobs {
					id, o, err := playLineup(ctx, conn, spec, lineups[i])
					if err != nil {
						errs <- err
						cancel()
						return
					}
					ids[n+i], outcomes[n+i] = id, o
					bar.add(1)
				}
			}()
		}
	feed:
		for i := range lineups {
			select {
			case jobs <- i:
			case <-ctx.Done():
				break feed
			}
		}
		close(jobs)
		wg.Wait()
		select {
		case err := <-errs:
			return err
		default:
			return ctx.Err()
		}
	}
	if !spec.swiss {
		return ids, outcomes, runRound(tour.RoundRobin(len(spec.entrants), spec.seats, spec.games, spec.duplicate, spec.seed))
	}
	k := len(spec.entrants)
	points, byes, met := make([]float64, k), make([]int, k), map[[2]int]int{}
	index := map[string]int{}
	for i, e := range spec.entrants {
		index[e] = i
	}
	for round := 0; len(ids) < total; round++ {
		tables := min(k/spec.seats, (total-len(ids))/per)
		lineups := tour.SwissRound(round, points, byes, met, spec.seats, tables, spec.duplicate, spec.seed)
		from := len(ids)
		if err := runRound(lineups); err != nil {
			return nil, nil, err
		}
		for _, o := range outcomes[from:] {
			for s, name := range o.Names {
				points[index[name]] += float64(spec.seats-o.Ranks[s]) / float64(spec.seats-1)
			}
		}
	}
	return ids, outcomes, nil
}

// playLineup creates one match and plays every seat with its entrant's built-in bot.
func playLineup(ctx context.Context, conn grpc.ClientConnInterface, spec *tournamentSpec, l tour.Lineup) (string, tour.Outcome, error) {
	names := make([]string, len(l.Entrants))
	for s, e := range l.Entrants {
		names[s] = spec.entrants[e]
	}
	seed := l.Seed
	created, err := orreryv1.NewArenaServiceClient(conn).CreateMatch(ctx, &orreryv1.CreateMatchRequest{
		Game: spec.game, Seats: int32(spec.seats), Options: spec.options, Seed: &seed, Clock: spec.clock, SeatNames: names,
	})
	if err != nil {
		return "", tour.Outcome{}, err
	}
	ends := make([]*orreryv1.MatchEnded, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for s, e := range l.Entrants {
		// A bot's own dice follow the match seed and the entrant, not the seat, so a
		// duplicate set replays each entrant's choices as well as the game's chance.
		b, err := builtin.New(spec.game, spec.bots[e], l.Seed^(uint64(e+1)*0x9e3779b97f4a7c15))
		if err != nil {
			return "", tour.Outcome{}, err
		}
		token := created.GetSeats()[s].GetToken()
		wg.Add(1)
		go func() {
			defer wg.Done()
			ends[s], errs[s] = sdk.Play(ctx, conn, token, b, sdk.Options{})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return "", tour.Outcome{}, fmt.Errorf("match %s: %w", created.GetMatchId(), err)
	}
	o := tour.Outcome{Names: names}
	spec.ends.add(ends[0].GetResult().GetReason())
	for _, r := range ends[0].GetResult().GetRanks() {
		o.Ranks = append(o.Ranks, int(r))
	}
	return created.GetMatchId(), o, nil
}

func printTournament(w io.Writer, r tournamentResult, addr string, local bool, dbPath string) {
	dup := ""
	if r.Duplicate {
		dup = ", seat-rotated duplicate sets"
	}
	fmt.Fprintf(w, "%s %s, %d seats, %d matches%s, seed %d\n", r.Game, r.Format, r.Seats, r.Matches, dup, r.Seed)
	fmt.Fprintf(w, "wall time %s (%s)\n\n", time.Duration(r.WallSeconds*float64(time.Second)).Round(time.Millisecond), matchRate(float64(r.Matches)/r.WallSeconds))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "place\tentrant\tmatches\twins\twin rate [95% CI]\twin share [95% CI]\tmean rank ± 95% CI\tpoints\t")
	for _, s := range r.Standings {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%.1f%% [%.1f, %.1f]\t%.1f%% [%.1f, %.1f]\t%.3f ± %.3f\t%.3f\t\n", s.Place, s.Entrant, s.Matches, s.Wins,
			100*s.WinRate, 100*s.WinLow, 100*s.WinHigh, 100*s.Share, 100*s.ShareLow, 100*s.ShareHigh, s.MeanRank, s.MeanRankCI, s.Points)
	}
	tw.Flush()
	printCrossTable(w, r.CrossTable)
	fmt.Fprintf(w, "\nended: %s\n", endCounts(r.EndReasons))
	fmt.Fprintln(w, "wins and win rate count a shared first place as a win for each seat sharing it; win share splits it (1/k each of k): shares add up to 100%")
	fmt.Fprintln(w, "CIs: Wilson for rates, normal for mean rank; points: (seats - rank) / (seats - 1)")
	switch {
	case r.TournamentID != "" && local:
		fmt.Fprintf(w, "tournament %s stored in %s; 'orrery replay MATCH_ID --db %s' replays a match\n", r.TournamentID, dbPath, dbPath)
	case r.TournamentID != "" && addr != "":
		fmt.Fprintf(w, "tournament %s stored on %s; 'orrery replay MATCH_ID --server %s' replays a match\n", r.TournamentID, addr, addr)
	}
}

// endCounts says how many matches ended each way, most first: "95 normal, 5 cap".
func endCounts(counts map[string]int) string {
	reasons := slices.Collect(maps.Keys(counts))
	slices.SortFunc(reasons, func(a, b string) int { return cmp.Or(counts[b]-counts[a], strings.Compare(a, b)) })
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = fmt.Sprintf("%d %s", counts[r], r)
	}
	return list(parts)
}

// roundStandings rounds rates and means to the four decimals they mean something to.
func roundStandings(st []tour.Standing) []tour.Standing {
	for i := range st {
		s := &st[i]
		s.WinRate, s.WinLow, s.WinHigh = round(s.WinRate, 4), round(s.WinLow, 4), round(s.WinHigh, 4)
		s.Share, s.ShareLow, s.ShareHigh = round(s.Share, 4), round(s.ShareLow, 4), round(s.ShareHigh, 4)
		s.MeanRank, s.MeanRankCI, s.Points = round(s.MeanRank, 4), round(s.MeanRankCI, 4), round(s.Points, 4)
	}
	return st
}

// round rounds x to places decimals.
func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

// progress is a progress bar on a terminal, or a line per tenth elsewhere.
type progress struct {
	w       io.Writer
	on, tty bool

	mu    sync.Mutex // guards the fields below
	total int
	done  int
	began time.Time
	drawn time.Time
	tenth int
}

func newProgress(f *os.File, on bool) *progress {
	p := &progress{w: f, on: on}
	if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
		p.tty = true
	}
	return p
}

func (p *progress) start(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.began = total, time.Now()
	p.drawLocked(true)
}

func (p *progress) add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.drawLocked(p.done == p.total)
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.on && p.tty && p.total > 0 {
		fmt.Fprintln(p.w)
	}
}

func (p *progress) drawLocked(force bool) {
	if !p.on || p.total == 0 {
		return
	}
	now := time.Now()
	elapsed := now.Sub(p.began)
	rate := float64(p.done) / max(elapsed.Seconds(), 1e-9)
	eta := "?"
	if p.done > 0 {
		eta = time.Duration(float64(p.total-p.done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	if !p.tty {
		if t := p.done * 10 / p.total; t > p.tenth || force && p.done == p.total {
			p.tenth = t
			fmt.Fprintf(p.w, "tournament: %d/%d matches, %s, %s\n", p.done, p.total, matchRate(rate), elapsed.Round(time.Millisecond))
		}
		return
	}
	if !force && now.Sub(p.drawn) < 100*time.Millisecond {
		return
	}
	p.drawn = now
	const width = 30
	fill := p.done * width / p.total
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d  %s  %s elapsed  eta %s ",
		strings.Repeat("=", fill), strings.Repeat(" ", width-fill), p.done, p.total, matchRate(rate), elapsed.Round(time.Second), eta)
}

// matchRate says a rate of matches per second readably: a search bot's matches take seconds
// each, and "0.0 matches/s" told nothing.
func matchRate(perSecond float64) string {
	if perSecond >= 1 {
		return fmt.Sprintf("%.1f matches/s", perSecond)
	}
	return fmt.Sprintf("%.1f matches/min", perSecond*60)
}
