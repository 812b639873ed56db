package hosted_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots/builtin"
	_ "github.com/orrery/orrery/engine/fccatan"
	_ "github.com/orrery/orrery/engine/icetraders"
	_ "github.com/orrery/orrery/engine/pantropia"
	_ "github.com/orrery/orrery/engine/planet"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/hosted"
	"github.com/orrery/orrery/service/ladder"
)

// seatPlan is who plays a seat: a hosted module, or a built-in bot by name.
type seatPlan struct {
	module  *hosted.Module
	builtin string
}

// seatLog is what one hosted seat did in a match.
type seatLog struct {
	steps   []hosted.Step
	verdict *hosted.Verdict
	stderr  string
}

// playMatch plays one match on an in-process arena with plan's seats and returns how it
// ended and what each hosted seat did.
func playMatch(t *testing.T, arena *service.Server, game string, options map[string]string, seed uint64, clock *orreryv1.Clock, plan []seatPlan) (*orreryv1.MatchSummary, []*seatLog) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	created, err := arena.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: game, Seats: int32(len(plan)), Options: options, Seed: &seed, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	logs := make([]*seatLog, len(plan))
	var wg sync.WaitGroup
	errs := make([]error, len(plan))
	for i, p := range plan {
		token := created.GetSeats()[i].GetToken()
		if p.module == nil {
			bot, err := builtin.New(game, p.builtin, seed+uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = ladder.PlayInProcess(ctx, arena, token, bot, 0)
			}()
			continue
		}
		logs[i] = new(seatLog)
		st, err := arena.Attach(token, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := p.module.Start(ctx, st.BotSeed())
		if err != nil {
			t.Fatalf("seat %d: %v", i, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer b.Close(context.Background())
			defer st.Detach()
			errs[i] = hosted.Play(ctx, st, b, hosted.PlayConfig{Seed: st.BotSeed(), OnStep: func(s hosted.Step) {
				logs[i].steps = append(logs[i].steps, s)
			}})
			logs[i].verdict, logs[i].stderr = b.Verdict(), b.Stderr()
		}()
	}
	sum, err := arena.AwaitEnd(ctx, created.GetMatchId())
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return sum, logs
}

func newArena(t *testing.T) *service.Server {
	t.Helper()
	arena, err := service.New(service.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(arena.Close)
	return arena
}

// TestHosted_GoBotsFinishAMatchOfEveryGame seats the Go kit's bots (the greedy ones where the
// kit has one) beside built-in bots in a match of each game.
func TestHosted_GoBotsFinishAMatchOfEveryGame(t *testing.T) {
	hosted.SkipShort(t)
	arena := newArena(t)
	random := hosted.TestModule(t, "bots/wasm/go/random")
	for _, tc := range []struct {
		game    string
		seats   int
		bot     *hosted.Module
		options map[string]string // short games: random play makes long ones
	}{
		{"icetraders", 4, hosted.TestModule(t, "bots/wasm/go/icetraders-greedy"), nil},
		{"planet", 3, hosted.TestModule(t, "bots/wasm/go/planet-greedy"), nil},
		{"pantropia", 3, random, map[string]string{"turn_cap": "12"}},
		{"fccatan", 3, random, map[string]string{"round_cap": "1", "map": "published"}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			plan := make([]seatPlan, tc.seats)
			plan[0].module = tc.bot
			plan[1].module = random
			for i := 2; i < tc.seats; i++ {
				plan[i].builtin = "random"
			}
			sum, logs := playMatch(t, arena, tc.game, tc.options, 7, nil, plan)
			if sum.GetResult() == nil {
				t.Fatalf("the match ended without a result: %v", sum)
			}
			for seat, l := range logs[:2] {
				if l.verdict != nil {
					t.Errorf("seat %d: verdict %v\n%s", seat, l.verdict, l.stderr)
				}
				if len(l.steps) == 0 {
					t.Errorf("seat %d made no decision", seat)
				}
			}
		})
	}
}

// TestHosted_CBotsFinishAMatchOfEveryGame seats the C kit's bots, built with clang at test
// time, beside built-in bots in a match of each game.
func TestHosted_CBotsFinishAMatchOfEveryGame(t *testing.T) {
	hosted.SkipShort(t)
	arena := newArena(t)
	random := hosted.CModule(t, "c-random", "random.c", "orrery.c")
	for _, tc := range []struct {
		game    string
		seats   int
		bot     *hosted.Module
		options map[string]string
	}{
		{"icetraders", 4, hosted.CModule(t, "c-icetraders-greedy", "icetraders_greedy.c", "greedy.c", "orrery.c"), nil},
		{"pantropia", 3, hosted.CModule(t, "c-pantropia-greedy", "pantropia_greedy.c", "greedy.c", "orrery.c"), map[string]string{"turn_cap": "40"}},
		{"planet", 3, random, nil},
		{"fccatan", 3, random, map[string]string{"round_cap": "1", "map": "published"}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			plan := []seatPlan{{module: tc.bot}, {module: random}}
			for len(plan) < tc.seats {
				plan = append(plan, seatPlan{builtin: "random"})
			}
			sum, logs := playMatch(t, arena, tc.game, tc.options, 11, nil, plan)
			if sum.GetResult() == nil {
				t.Fatalf("the match ended without a result: %v", sum)
			}
			for seat, l := range logs[:2] {
				if l.verdict != nil {
					t.Errorf("seat %d: verdict %v\n%s", seat, l.verdict, l.stderr)
				}
				if len(l.steps) == 0 {
					t.Errorf("seat %d made no decision", seat)
				}
			}
			t.Logf("%d and %d decisions; ended %v", len(logs[0].steps), len(logs[1].steps), sum.GetResult().GetReason())
			if tc.bot != random && logs[0].steps[0].Debug == "" {
				t.Errorf("the greedy bot's note was not kept: %+v", logs[0].steps[0])
			}
		})
	}
}

// TestHosted_TimeLimitAndTheMatchGoesOn seats the probe, which loops at its first decision:
// it gets TIME_LIMIT at the decision's deadline, and its seat plays on by the timeout policy
// until the match ends.
func TestHosted_TimeLimitAndTheMatchGoesOn(t *testing.T) {
	arena := newArena(t)
	clock := &orreryv1.Clock{PerMove: durationpb.New(300 * time.Millisecond), TimeBank: durationpb.New(0)}
	loop := hosted.TestModule(t, "service/hosted/testdata/loop")
	sum, logs := playMatch(t, arena, "icetraders", nil, 3, clock, []seatPlan{{module: loop}, {builtin: "random"}, {builtin: "random"}})
	if sum.GetResult() == nil {
		t.Fatalf("no result: %v", sum)
	}
	v := logs[0].verdict
	if v == nil || v.Kind != hosted.TimeLimit {
		t.Fatalf("verdict %v, want TIME_LIMIT\n%s", v, logs[0].stderr)
	}
	if n := len(logs[0].steps); n != 1 || logs[0].steps[0].Verdict != v {
		t.Errorf("%d steps recorded for the looping seat, want its one decision with the verdict", n)
	}
}

// TestHosted_SeededMatchesReplayExactly plays seeded matches of hosted bots that do not read
// the clock (the Go kit's greedy IceTraders bot and random bot, the C kit's greedy) twice from
// the same seeds: every action of every match is the same the second time. Bots seed
// themselves from the host's random source, which the match seed and the seat seed.
func TestHosted_SeededMatchesReplayExactly(t *testing.T) {
	hosted.SkipShort(t)
	arena := newArena(t)
	greedy := hosted.TestModule(t, "bots/wasm/go/icetraders-greedy")
	random := hosted.TestModule(t, "bots/wasm/go/random")
	cGreedy := hosted.CModule(t, "c-icetraders-greedy", "icetraders_greedy.c", "greedy.c", "orrery.c")
	plan := []seatPlan{{module: greedy}, {module: random}, {module: cGreedy}, {module: random}}
	run := func(seed uint64) []string {
		sum, logs := playMatch(t, arena, "icetraders", nil, seed, nil, plan)
		for seat, l := range logs {
			if l.verdict != nil {
				t.Fatalf("seed %d seat %d: %v", seed, seat, l.verdict)
			}
		}
		rep, err := arena.GetReplay(context.Background(), &orreryv1.GetReplayRequest{MatchId: sum.GetMatchId()})
		if err != nil {
			t.Fatal(err)
		}
		// Each seat's actions in its order, and the result: simultaneous secret choices are
		// logged in the order they arrived, which the machine decides, not the bots.
		bySeat := make([]string, len(plan))
		for _, s := range rep.GetSteps() {
			if s.GetTimedOut() != orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED {
				t.Fatalf("seed %d: seat %d timed out", seed, s.GetSeat())
			}
			bySeat[s.GetSeat()] += s.GetNotation() + "; "
		}
		return append(bySeat, fmt.Sprint(sum.GetResult().GetRanks()))
	}
	differ := false
	var first []string
	for seed := uint64(1); seed <= 2; seed++ {
		a, b := run(seed), run(seed)
		if !slices.Equal(a, b) {
			t.Errorf("seed %d played differently the second time:\n%v\n%v", seed, a, b)
		}
		if first == nil {
			first = a
		} else if !slices.Equal(first, a) {
			differ = true
		}
	}
	if !differ {
		t.Error("two seeds played the same match: the seed does not reach the bots")
	}
}

// TestHosted_DebugNoteAndCPUKeptWithEachStep: each step a hosted bot's answer made carries,
// in the match's replay, the bot's debug note and the CPU time the host measured for that
// decision; the other seats' steps carry no CPU time.
func TestHosted_DebugNoteAndCPUKeptWithEachStep(t *testing.T) {
	arena := newArena(t)
	greedy := hosted.CModule(t, "c-icetraders-greedy", "icetraders_greedy.c", "greedy.c", "orrery.c")
	sum, logs := playMatch(t, arena, "icetraders", nil, 5, nil, []seatPlan{{module: greedy}, {builtin: "greedy"}, {builtin: "random"}})
	rep, err := arena.GetReplay(context.Background(), &orreryv1.GetReplayRequest{MatchId: sum.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	// The host's record of each decision, in order; the replay's steps of seat 0 that a
	// decision answered, in order.
	var answered []*orreryv1.ReplayStep
	for _, s := range rep.GetSteps() {
		switch {
		case s.GetSeat() == 0 && s.GetTimedOut() == orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED:
			answered = append(answered, s)
		case s.GetCpuTime() != nil:
			t.Errorf("a step of seat %d (%s) has a CPU time: %v", s.GetSeat(), s.GetNotation(), s.GetCpuTime().AsDuration())
		}
	}
	steps := logs[0].steps
	if len(answered) == 0 || len(answered) != len(steps) {
		t.Fatalf("%d steps of the hosted seat in the replay, %d decisions it answered", len(answered), len(steps))
	}
	for i, s := range answered {
		if s.GetNote() == "" || s.GetNote() != steps[i].Debug {
			t.Errorf("step %d (%s): note %q, the bot's debug %q", i, s.GetNotation(), s.GetNote(), steps[i].Debug)
		}
		if cpu := s.GetCpuTime().AsDuration(); cpu <= 0 || cpu != steps[i].CPU {
			t.Errorf("step %d (%s): CPU %v in the replay, %v measured", i, s.GetNotation(), cpu, steps[i].CPU)
		}
	}
}

// TestHosted_HandWrittenWATBotFinishesAMatchOfEveryGame plays bots/wasm/wat/random.wat, a bot
// written in WebAssembly text from docs/hosted.md alone (no kit, no libc), in a match of each
// game: it answers every decision and breaks no limit.
func TestHosted_HandWrittenWATBotFinishesAMatchOfEveryGame(t *testing.T) {
	arena := newArena(t)
	wat := hosted.WATModule(t, "bots/wasm/wat/random.wat")
	for _, tc := range []struct {
		game    string
		seats   int
		options map[string]string
	}{
		{"icetraders", 3, nil},
		{"planet", 3, nil},
		{"pantropia", 3, map[string]string{"turn_cap": "12"}},
		{"fccatan", 3, map[string]string{"round_cap": "1", "map": "published"}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			plan := []seatPlan{{module: wat}, {module: wat}}
			for len(plan) < tc.seats {
				plan = append(plan, seatPlan{builtin: "random"})
			}
			sum, logs := playMatch(t, arena, tc.game, tc.options, 13, nil, plan)
			if sum.GetResult() == nil {
				t.Fatalf("the match ended without a result: %v", sum)
			}
			for seat, l := range logs[:2] {
				if l.verdict != nil {
					t.Errorf("seat %d: verdict %v\n%s", seat, l.verdict, l.stderr)
				}
				if len(l.steps) == 0 {
					t.Errorf("seat %d made no decision", seat)
				}
			}
			rep, err := arena.GetReplay(context.Background(), &orreryv1.GetReplayRequest{MatchId: sum.GetMatchId()})
			if err != nil {
				t.Fatal(err)
			}
			answered := 0
			for _, s := range rep.GetSteps() {
				if s.GetSeat() < 2 && s.GetTimedOut() == orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED && s.GetNotation() != "" {
					answered++
				}
			}
			if answered != len(logs[0].steps)+len(logs[1].steps) {
				t.Errorf("the replay has %d steps the module's seats chose, the host counted %d decisions", answered, len(logs[0].steps)+len(logs[1].steps))
			}
		})
	}
}
