package icetraders

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/engine"
	it "github.com/orrery/orrery/engine/icetraders"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// winRate plays games 4-seat matches, greedy in a rotating seat against three random bots.
// Greedy "beats" the table when its rank is strictly better than every random seat's rank:
// it is the sole winner (shared wins and capped draws do not count).
func winRate(t testing.TB, games int) (beats int, reasons map[string]int) {
	reasons = map[string]int{}
	for g := 0; g < games; g++ {
		seat := g % 4
		players := make([]bots.Bot, 4)
		for i := range players {
			players[i] = random.New(uint64(1000*g + i))
		}
		players[seat] = NewGreedy(uint64(g))
		st, _, err := local.Play("icetraders", engine.Config{Seats: 4, Seed: uint64(g + 1)}, players)
		if err != nil {
			t.Fatal(err)
		}
		res := st.Result()
		won := true
		for i, r := range res.Ranks {
			if i != seat && r <= res.Ranks[seat] {
				won = false
			}
		}
		if won {
			beats++
		} else {
			reasons[res.Detail]++
		}
	}
	return beats, reasons
}

// fullSize reports whether the full-size statistical runs were asked for (ORRERY_FULL=1);
// by default they are small, so CI stays fast.
func fullSize() bool { return os.Getenv("ORRERY_FULL") == "1" }

// games is n for a full-size run, else small.
func games(n, small int) int {
	if fullSize() {
		return n
	}
	return small
}

// TestGreedy_BeatsRandom: greedy in a rotating seat against three random bots, 4-seat games.
// Small by default (40 games); ORRERY_FULL=1 plays 200.
func TestGreedy_BeatsRandom(t *testing.T) {
	games := games(200, 40)
	beats, reasons := winRate(t, games)
	rate := float64(beats) / float64(games)
	t.Logf("greedy beat three random bots in %d of %d 4-seat games (%.1f%%)", beats, games, 100*rate)
	if len(reasons) > 0 {
		t.Logf("other outcomes: %v", reasons)
	}
	if rate < 0.8 {
		t.Errorf("win rate %.1f%% is under 80%%", 100*rate)
	}
}

// TestGreedy_PlaysToTheEnd: four greedy bots, with chosen and with random alignments, end at
// least 75% of seeded 4-seat games by a win condition (an elimination's win, Good's win, the
// last survivor, or nobody surviving), not by the turn or pass cap. Small by default (40
// games each); ORRERY_FULL=1 plays 200 each:
//
//	ORRERY_FULL=1 go test ./bots/icetraders -run PlaysToTheEnd -v
func TestGreedy_PlaysToTheEnd(t *testing.T) {
	n := games(200, 40)
	for _, alignment := range []string{"chosen", "random"} {
		t.Run("alignment="+alignment, func(t *testing.T) {
			ended, caps := 0, map[string]int{}
			for g := 0; g < n; g++ {
				players := make([]bots.Bot, 4)
				for i := range players {
					players[i] = NewGreedy(uint64(100*g + i))
				}
				cfg := engine.Config{Seats: 4, Seed: uint64(g + 1), Options: map[string]string{it.OptAlignment: alignment}}
				st, _, err := local.Play(it.Name, cfg, players)
				if err != nil {
					t.Fatal(err)
				}
				switch res := st.Result(); res.Reason {
				case engine.EndNormal:
					ended++
				default:
					kind, _, _ := strings.Cut(res.Detail, ":")
					caps[fmt.Sprintf("%v: %s", res.Reason, kind)]++
				}
			}
			rate := float64(ended) / float64(n)
			t.Logf("alignment=%s: %d of %d games ended by a win condition (%.1f%%); capped: %v", alignment, ended, n, 100*rate, caps)
			if rate < 0.75 {
				t.Errorf("only %.1f%% of games ended by a win condition, want at least 75%%", 100*rate)
			}
		})
	}
}

// position builds a decision for seat 0 in a 2-seat play position: one red large system with
// the given ships (owner, color 1-4, size 1-3).
func position(t *testing.T, evil bool, ships ...[3]int32) *orreryv1.Decision {
	t.Helper()
	o := &pb.Observation{Seat: 0, Seats: 2, Phase: pb.Phase_PHASE_PLAY, CurrentSeat: 0, FirstSeat: 0, TurnCap: 60, PassRoundsCap: 2, StashPerKind: 5}
	for k := 0; k < 12; k++ {
		o.Stash = append(o.Stash, &pb.StashCount{Piece: &pb.Piece{Color: pb.Color(k/3 + 1), Size: pb.Size(k%3 + 1)}, Count: 4})
	}
	sys := &pb.System{Id: 0, Marker: &pb.Piece{Color: pb.Color_COLOR_BLUE, Size: pb.Size_SIZE_LARGE}}
	for i, x := range ships {
		sys.Ships = append(sys.Ships, &pb.Ship{Id: int32(i), Owner: x[0], Piece: &pb.Piece{Color: pb.Color(x[1]), Size: pb.Size(x[2])}})
	}
	o.Systems = []*pb.System{sys, {Id: 1, Marker: &pb.Piece{Color: pb.Color_COLOR_BLUE, Size: pb.Size_SIZE_SMALL}}}
	align := pb.Alignment_ALIGNMENT_GOOD
	if evil {
		align = pb.Alignment_ALIGNMENT_EVIL
	}
	o.Players = []*pb.Player{
		{Seat: 0, Alignment: align, AlignmentChosen: true, PicksChosen: true, PlacedFirstShip: true, TurnsTaken: 3, EliminatedBy: -1},
		{Seat: 1, AlignmentChosen: true, PicksChosen: true, PlacedFirstShip: true, TurnsTaken: 3, EliminatedBy: -1},
	}
	st, err := it.FromObservation(o, nil)
	if err != nil {
		t.Fatal(err)
	}
	return wire.Decision(st, 0, st.Legal(0, nil), 10)
}

func choice(d *orreryv1.Decision, ans *orreryv1.Answer) string {
	return d.GetLegalNotation()[ans.GetLegalIndex()]
}

func TestGreedy_EliminatesALoneShipToWin(t *testing.T) {
	// Seat 0 (Evil): a red medium and a green small; seat 1: one yellow small and nothing else.
	d := position(t, true, [3]int32{0, 1, 2}, [3]int32{0, 3, 1}, [3]int32{1, 2, 1})
	for seed := uint64(0); seed < 10; seed++ {
		if got := choice(d, NewGreedy(seed).Act(d)); got != "attack s2 with s0" {
			t.Errorf("seed %d: greedy chose %q, want the winning attack", seed, got)
		}
	}
}

func TestGreedy_NeverEliminatesItself(t *testing.T) {
	// Seat 0's only ship: discovering or sacrificing it would end its game.
	d := position(t, true, [3]int32{0, 4, 1}, [3]int32{1, 2, 3}, [3]int32{1, 2, 1})
	for seed := uint64(0); seed < 20; seed++ {
		if got := choice(d, NewGreedy(seed).Act(d)); got == "discover s0" || got == "sacrifice s0" {
			t.Errorf("seed %d: greedy chose %q", seed, got)
		}
	}
}

func TestGreedy_ChoosesEvil(t *testing.T) {
	st, _ := engine.New("icetraders", engine.Config{Seats: 3, Seed: 1})
	d := wire.Decision(st, 0, st.Legal(0, nil), 0)
	if got := choice(d, NewGreedy(1).Act(d)); got != "align evil" {
		t.Errorf("alignment %q", got)
	}
}

func TestGreedy_LateGameDecision(t *testing.T) {
	// The recorded late-game position (798 legal actions): whatever the seed that breaks ties,
	// and in whatever order the legal actions come, greedy takes one of the actions its
	// search scores best, and late in the match that is not the pass.
	d := lateGame(t)
	me := int(d.GetSeat())
	st, err := it.FromObservation(wire.GameObservation(d.GetObservation()).(*pb.Observation), nil)
	if err != nil {
		t.Fatal(err)
	}
	scores := map[string]float64{}
	best := unscored
	acts := st.Legal(engine.Seat(me), nil)
	for i, v := range newSearch(st, me).scoreAll(acts) {
		scores[it.FormatAction(acts[i])] = v
		best = max(best, v)
	}
	if scores["pass"] == best {
		t.Errorf("the pass scores best (%g) late in the match", best)
	}
	for seed := uint64(0); seed < 5; seed++ {
		if got := choice(d, NewGreedy(seed).Act(d)); scores[got] != best {
			t.Errorf("seed %d: greedy chose %q (%g), the best scores %g", seed, got, scores[got], best)
		}
	}
	// In another order than the engine's, the actions are read from their notation.
	slices.Reverse(d.LegalNotation)
	slices.Reverse(d.Legal)
	if got := choice(d, NewGreedy(1).Act(d)); scores[got] != best {
		t.Errorf("reversed legal list: greedy chose %q (%g), the best scores %g", got, scores[got], best)
	}
}

func TestGreedy_FastScoreMatchesObservation(t *testing.T) {
	// On every action of the late-game position that ends the bot's action, the score read
	// from the simulated state is the score of that state's observation.
	d := lateGame(t)
	me := int(d.GetSeat())
	st, err := it.FromObservation(wire.GameObservation(d.GetObservation()).(*pb.Observation), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := newSearch(st, me)
	checked := 0
	for _, a := range st.Legal(engine.Seat(me), nil) {
		c := st.Clone().(*it.State)
		if err := c.Apply(engine.Seat(me), a); err != nil {
			t.Fatalf("%s: %v", it.FormatAction(a), err)
		}
		if s.continues(c) {
			continue
		}
		checked++
		if got, want := s.static(c), Evaluate(c.Observe(engine.Seat(me)).(*pb.Observation), me); got != want {
			t.Errorf("%s: state score %g, observation score %g", it.FormatAction(a), got, want)
		}
	}
	if checked < 500 {
		t.Errorf("only %d actions checked", checked)
	}
}

// TestStateEvaluator_MatchesObservation: along seeded random matches, to the end, the state
// scoring a search uses gives every seat the score of that seat's observation.
func TestStateEvaluator_MatchesObservation(t *testing.T) {
	var e StateEvaluator
	checked := 0
	for seed := uint64(1); seed <= 12; seed++ {
		g, err := engine.New(it.Name, engine.Config{Seats: 4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		st := g.(*it.State)
		r := random.New(seed)
		for ply := 0; ; ply++ {
			for seat := range st.Seats() {
				want := Evaluate(st.Observe(engine.Seat(seat)).(*pb.Observation), seat)
				if got := e.Evaluate(st, seat); got != want {
					t.Errorf("seed %d ply %d seat %d: state score %g, observation score %g", seed, ply, seat, got, want)
				}
				checked++
			}
			if st.Terminal() {
				break
			}
			seat := st.ToAct(nil)[0]
			legal := st.Legal(seat, nil)
			a, _, err := wire.Answer(st, legal, r.Act(wire.Decision(st, seat, legal, int64(ply))))
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Apply(seat, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 400 {
		t.Errorf("only %d scores checked", checked)
	}
}
