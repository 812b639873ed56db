package mcts

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/orrery/orrery/bots"
	fccatanbot "github.com/orrery/orrery/bots/fccatan"
	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/fccatan"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// fccatanTicks plays a Full-Contact Catan match with greedy in every seat into its first round
// and returns team 0's decision at each of its first n ticks.
func fccatanTicks(t testing.TB, n int) []*orreryv1.Decision {
	t.Helper()
	st, err := engine.New("fccatan", engine.Config{Seats: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	greedy := fccatanbot.NewGreedy(0)
	var out []*orreryv1.Decision
	for ply := 0; len(out) < n && !st.Terminal(); ply++ {
		seat := st.ToAct(nil)[0]
		legal := st.Legal(seat, nil)
		d := wire.Decision(st, seat, legal, int64(ply))
		d.DecisionId = string(rune('a'+ply%26)) + string(rune('a'+ply/26%26)) + string(rune('a'+ply/676))
		o := wire.GameObservation(d.GetObservation()).(*fccatanv1.Observation)
		if seat == 0 && o.GetPhase() == fccatanv1.Phase_PHASE_TICK {
			out = append(out, d)
		}
		a, _, err := wire.Answer(st, legal, greedy.Act(d))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(seat, a); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func observed(d *orreryv1.Decision) *fccatanv1.Observation {
	return wire.GameObservation(d.GetObservation()).(*fccatanv1.Observation)
}

// changedMotion is the first of d's listed actions that sends one of the team's players
// (who) somewhere prior's plan does not: a change the search may make.
func changedMotion(t *testing.T, d *orreryv1.Decision, prior *orreryv1.Answer) (changed, who int) {
	t.Helper()
	for i, la := range d.GetLegal() {
		in := wire.GameAction(la).(*fccatanv1.Action).GetIntents().GetAvatars()
		for k, g := range intentsOf(prior).GetAvatars() {
			if k < len(in) && !sameMotion(in[k], g) && in[k].GetTarget() != nil {
				return i, k
			}
		}
	}
	t.Fatal("no listed change of a player's motion")
	return -1, -1
}

// TestPlanner_KeepsThePlanUntilTheSituationChanges: after a search, the next ticks are answered
// without one (greedy's steering, with the search's changed order kept for
// fccatanOverrideTicks) until a ball changes hands or the plan is fccatanReplanTicks old; the
// planned tick asked again gets its answer.
func TestPlanner_KeepsThePlanUntilTheSituationChanges(t *testing.T) {
	const calm = 10 // the first ticks of a round, in which no ball changes hands
	ds := fccatanTicks(t, calm)
	greedy := fccatanbot.NewGreedy(0)
	p := newFccatanPlanner()
	if a := p.Standing(ds[0], greedy.Act(ds[0])); a != nil {
		t.Fatalf("a first tick was answered without a plan: %v", a)
	}
	// The search changed one player's order: a listed change whose motion is not greedy's.
	prior := greedy.Act(ds[0])
	changed, who := changedMotion(t, ds[0], prior)
	searched := bots.Index(ds[0], changed)
	p.Planned(ds[0], prior, searched)
	if got := p.Standing(ds[0], prior); !proto.Equal(got, searched) {
		t.Errorf("the planned tick asked again: %v, want %v", got, searched)
	}
	want := wire.GameAction(ds[0].GetLegal()[changed]).(*fccatanv1.Action).GetIntents().GetAvatars()[who]
	for k := 1; k < calm; k++ {
		g := greedy.Act(ds[k])
		got := p.Standing(ds[k], g)
		if got == nil {
			t.Fatalf("tick %d: a search, want the standing plan (nothing changed)", observed(ds[k]).GetTick())
		}
		if k >= fccatanOverrideTicks {
			if !proto.Equal(got, g) {
				t.Errorf("tick %d: %v, want greedy's plan once the override has run its course", observed(ds[k]).GetTick(), got)
			}
			continue
		}
		in := intentsOf(got).GetAvatars()
		if !proto.Equal(in[who], want) {
			t.Errorf("tick %d: player %d's order %v, want the search's %v", observed(ds[k]).GetTick(), who, in[who], want)
		}
		for i, gi := range intentsOf(g).GetAvatars() {
			if i != who && !proto.Equal(in[i], gi) {
				t.Errorf("tick %d: player %d's order %v, want greedy's %v", observed(ds[k]).GetTick(), i, in[i], gi)
			}
		}
	}
	old := proto.Clone(ds[1]).(*orreryv1.Decision)
	observed(old).Tick = observed(ds[0]).GetTick() + fccatanReplanTicks
	if a := p.Standing(old, greedy.Act(old)); a != nil {
		t.Errorf("a plan %d ticks old stood: %v", fccatanReplanTicks, a)
	}
	// A rival's ball far from our knights is not; a ball in our hands is.
	far := proto.Clone(ds[1]).(*orreryv1.Decision)
	observed(far).GetTeams()[2].GetAvatars()[3].Carrying = fccatanv1.Resource_RESOURCE_ORE
	if a := p.Standing(far, greedy.Act(far)); a == nil {
		t.Error("a rival's pickup far from our knights called for a search")
	}
	d := proto.Clone(ds[1]).(*orreryv1.Decision)
	observed(d).GetTeams()[0].GetAvatars()[3].Carrying = fccatanv1.Resource_RESOURCE_ORE
	if a := p.Standing(d, greedy.Act(d)); a != nil {
		t.Errorf("a ball picked up left the plan standing: %v", a)
	}
}

// TestPlanner_SearchesFewerTicks: over a round of greedy play, the search bot searches only a
// fraction of its ticks, and answers every one.
func TestPlanner_SearchesFewerTicks(t *testing.T) {
	ds := fccatanTicks(t, 60)
	b := MustNew("fccatan", Config{Iterations: 40, Seed: 1})
	searched := 0
	for _, d := range ds {
		if b.Act(d).GetChoice() == nil {
			t.Fatalf("tick %d: no answer", observed(d).GetTick())
		}
		if b.LastStats().Iterations > 0 {
			searched++
		}
	}
	if searched == 0 || searched > len(ds)/3 {
		t.Errorf("searched %d of %d ticks, want some, at most a third", searched, len(ds))
	}
}

// TestModel_OthersSteerAsGreedyAndTheTeamKeepsThePlan: in the search's simulation of the
// ticks ahead, the other teams answer (in the tree and in playouts) as greedy steers; the
// searching team's player whose order the plan changed keeps it for the playout, while its
// other players are steered as greedy steers them.
func TestModel_OthersSteerAsGreedyAndTheTeamKeepsThePlan(t *testing.T) {
	d := fccatanTicks(t, 5)[4]
	g := fccatanGame()
	det, err := g.Determinizer(d)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	st := det.Sample(nil, r).(*fccatan.State)
	// A listed change of one player's order to somewhere greedy does not send it.
	greedy := st.Steer(0)
	legal := st.Legal(0, nil)
	chosen, who := engine.Action{}, -1
	for _, a := range legal[1:] {
		if h := fccatan.Overrides(a, legal[0], greedy); h != 0 && who < 0 {
			chosen, who = a, bits.TrailingZeros8(h)
		}
	}
	if who < 0 {
		t.Fatal("no listed change overrides greedy")
	}
	if err := st.Apply(0, chosen); err != nil {
		t.Fatal(err)
	}
	reply := g.Reply()
	for seat := engine.Seat(1); seat < 4; seat++ {
		want := st.Steer(int(seat))
		if got := reply(st, seat, st.Legal(seat, nil), r); got != want {
			t.Fatalf("team %d replies %s in the tree, want greedy's %s", seat, st.FormatAction(got), st.FormatAction(want))
		}
		if err := st.Apply(seat, want); err != nil {
			t.Fatal(err)
		}
	}
	for k := 0; k < 6; k++ {
		for seat := engine.Seat(0); seat < 4; seat++ {
			got := g.Playout(st, seat, st.Legal(seat, nil), r)
			want := st.Steer(int(seat))
			if seat == 0 {
				want = st.SteerHolding(0, 1<<who)
				if in := intentArgs(got, who); in != intentArgs(chosen, who) {
					t.Errorf("playout tick %d: the overridden player %d runs %v, want the plan's %v", k, who, in, intentArgs(chosen, who))
				}
			}
			if got != want {
				t.Errorf("playout tick %d: team %d plays %s, want %s", k, seat, st.FormatAction(got), st.FormatAction(want))
			}
			if err := st.Apply(seat, got); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// intentArgs is player i's intent as packed in a's arguments.
func intentArgs(a engine.Action, i int) [3]int16 {
	return [3]int16{a.Arg[3*i], a.Arg[3*i+1], a.Arg[3*i+2]}
}

// BenchmarkOverrules_FullContactCatan plays one match, the search in seat 0 and greedy in the
// others, and prints each tick where the search overruled greedy: the players whose orders
// it changed, greedy's and its own, and the two plans' mean rewards and visits (what the
// simulation saw). ORRERY_MCTS_ITERATIONS sets the budget (default 300), ORRERY_MCTS_SEED the
// match's seed (default 1000).
//
//	go test ./bots/mcts -run '^$' -bench Overrules_FullContactCatan -benchtime 1x
func BenchmarkOverrules_FullContactCatan(b *testing.B) {
	iters, seed := 300, uint64(1000)
	if v, err := strconv.Atoi(os.Getenv("ORRERY_MCTS_ITERATIONS")); err == nil && v > 0 {
		iters = v
	}
	if v, err := strconv.ParseUint(os.Getenv("ORRERY_MCTS_SEED"), 10, 64); err == nil {
		seed = v
	}
	for b.Loop() {
		st, err := engine.New("fccatan", engine.Config{Seats: 4, Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		bot := MustNew("fccatan", Config{Iterations: iters, Seed: seed})
		greedy := fccatanbot.NewGreedy(0)
		searched, overruled := 0, 0
		for ply := 0; !st.Terminal(); ply++ {
			seat := st.ToAct(nil)[0]
			legal := st.Legal(seat, nil)
			d := wire.Decision(st, seat, legal, int64(ply))
			d.DecisionId = strconv.Itoa(ply)
			ans := greedy.Act(d)
			if seat == 0 {
				ans = bot.Act(d)
				if bot.LastStats().Iterations > 0 {
					searched++
				}
				if bot.LastStats().Overruled {
					overruled++
					fmt.Printf("%s\n", bot.overruling(st))
					fmt.Printf("    one sample, 40 ticks on: greedy's plan %s\n    the search's %s\n",
						foresee(d, bot.roots[bot.favour]), foresee(d, bot.roots[bot.best()]))
				}
			}
			a, _, err := wire.Answer(st, legal, ans)
			if err != nil {
				b.Fatal(err)
			}
			if err := st.Apply(seat, a); err != nil {
				b.Fatal(err)
			}
		}
		r := st.Result()
		fmt.Printf("seed %d: %s; the search team's rank %d; %d ticks searched, %d overruled\n", seed, r.Detail, r.Ranks[0], searched, overruled)
	}
}

// foresee plays plan for d's team on one sample of d, as the search's model plays the ticks
// after it (a fresh model, so as many ticks as a playout), and says what came of it for each
// team: balls banked and carried, players frozen, and the evaluation.
func foresee(d *orreryv1.Decision, plan engine.Action) string {
	g := fccatanGame()
	det, err := g.Determinizer(d)
	if err != nil {
		return err.Error()
	}
	r := rand.New(rand.NewPCG(7, 7))
	st := det.Sample(nil, r).(*fccatan.State)
	me := engine.Seat(d.GetSeat())
	before := st.Observe(me).(*fccatanv1.Observation)
	if err := st.Apply(me, plan); err != nil {
		return err.Error()
	}
	reply := g.Reply()
	for seat := engine.Seat(0); int(seat) < st.Seats(); seat++ {
		if seat != me && st.Apply(seat, reply(st, seat, st.Legal(seat, nil), r)) != nil {
			return "a reply was refused"
		}
	}
	for k := 0; k < g.Depth && !st.Terminal(); k++ {
		seat := st.ToAct(nil)[0]
		if st.Apply(seat, g.Playout(st, seat, st.Legal(seat, nil), r)) != nil {
			return "a playout move was refused"
		}
	}
	after := st.Observe(me).(*fccatanv1.Observation)
	var out []string
	for t, tm := range after.GetTeams() {
		banked := func(o *fccatanv1.Observation) int32 {
			x := o.GetTeams()[t].GetResources()
			return x.GetWood() + x.GetBrick() + x.GetOre() + x.GetSheep()
		}
		carried, frozen := 0, 0
		for _, a := range tm.GetAvatars() {
			if a.GetCarrying() != fccatanv1.Resource_RESOURCE_UNSPECIFIED {
				carried++
			}
			if a.GetFrozen() {
				frozen++
			}
		}
		out = append(out, fmt.Sprintf("team %d +%d banked %d carried %d frozen", t, banked(after)-banked(before), carried, frozen))
	}
	return fmt.Sprintf("%s; evaluation %.4f", strings.Join(out, ", "), st.Evaluate(me))
}

// overruling describes the last search's overruling of the prior on st: the orders the search
// changed from the standing ones (the first listed action) beside greedy's, and both plans'
// statistics.
func (b *Bot) overruling(st engine.State) string {
	me := b.nodes[0].seat
	fav, best := b.roots[b.favour], b.roots[b.best()]
	stat := func(a engine.Action) string {
		nd := &b.nodes[b.kids[kidKey{0, me, a}]]
		return fmt.Sprintf("%.4f over %.0f", nd.reward/max(nd.visits, 1), nd.visits)
	}
	fs := st.(*fccatan.State)
	var changed []string
	k, g, c := strings.Fields(fs.FormatAction(b.roots[0])), strings.Fields(fs.FormatAction(fav)), strings.Fields(fs.FormatAction(best))
	for i := 1; i < len(k) && i < len(g) && i < len(c); i++ {
		if k[i] != c[i] {
			changed = append(changed, fmt.Sprintf("standing %s, greedy %s, search %s", k[i], g[i], c[i]))
		}
	}
	return fmt.Sprintf("round %d tick %d: %s; greedy %s, search %s", fs.Round(), fs.Tick(), strings.Join(changed, "; "), stat(fav), stat(best))
}

// TestPlanner_KeepsNoPartOfTheDecision: a house bot's decision is the server's memory once
// Act returns (service.Seat.Lend builds the next decision, maybe another seat's, in it), so
// the plan keeps copies of the orders it changes, not the listed actions themselves.
func TestPlanner_KeepsNoPartOfTheDecision(t *testing.T) {
	ds := fccatanTicks(t, 1)
	prior := fccatanbot.NewGreedy(0).Act(ds[0])
	p := newFccatanPlanner().(*fccatanPlanner)
	changed, who := changedMotion(t, ds[0], prior)
	p.Planned(ds[0], prior, bots.Index(ds[0], changed))
	want := proto.CloneOf(wire.GameAction(ds[0].GetLegal()[changed]).(*fccatanv1.Action).GetIntents().GetAvatars()[who])
	if !proto.Equal(p.override[who], want) {
		t.Fatalf("override of player %d: %v, want %v", who, p.override[who], want)
	}
	for _, la := range ds[0].GetLegal() { // the server builds another decision in its memory
		for _, in := range wire.GameAction(la).(*fccatanv1.Action).GetIntents().GetAvatars() {
			proto.Reset(in)
		}
	}
	if !proto.Equal(p.override[who], want) {
		t.Errorf("override of player %d after the decision's memory was reused: %v, want %v", who, p.override[who], want)
	}
}

// BenchmarkTickDeadline_FullContactCatan answers ticks as a wall-clock match sends them, each
// due at the next tick (100 ms on), with the default 100 ms budget and every tick searched
// (Exhaustive: the worst case, no standing plan), and reports how many answers came late, the
// least time to spare and the iterations a tick: a search must fit the tick. Not a test:
// the figures depend on the machine's load.
//
//	go test ./bots/mcts -run '^$' -bench TickDeadline_FullContactCatan -benchtime 1x
func BenchmarkTickDeadline_FullContactCatan(b *testing.B) {
	ds := fccatanTicks(b, 100)
	for b.Loop() {
		bot := MustNew("fccatan", Config{Exhaustive: true, Seed: 16})
		late, least, iterations := 0, time.Duration(1<<62), 0
		for _, d := range ds {
			tick := 100 * time.Millisecond // the default rules' tick
			d.Deadline = timestamppb.New(time.Now().Add(tick))
			bot.Act(d)
			spare := time.Until(d.GetDeadline().AsTime())
			if spare < 0 {
				late++
			}
			least = min(least, spare)
			iterations += bot.LastStats().Iterations
		}
		b.ReportMetric(float64(late), "late")
		b.ReportMetric(float64(least.Microseconds())/1000, "ms-spare-least")
		b.ReportMetric(float64(iterations)/float64(len(ds)), "iterations/tick")
	}
}
