package service

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	_ "github.com/orrery/orrery/bots/fccatan"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	_ "github.com/orrery/orrery/engine/fccatan"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// quickField is a Full-Contact Catan match short enough for a test: 20 ms ticks, 1 s rounds,
// 3 rounds, and markets and choices of a fraction of a second. A 1-second round is playable
// (every resource fetched within it) only on the small map at a high top speed.
var quickField = map[string]string{
	"tick_rate": "50", "round_seconds": "1", "round_cap": "3", "market_seconds": "1", "choice_seconds": "1",
	"map": "published", "top_speed_cm_s": "5000",
}

// A slow bot on the wall clock loses ticks, but the match keeps time: it advances without
// waiting for the slow team, and that team's intents stand until it sends new ones.
func TestWallClock_SlowBotLosesTicksButTheMatchKeepsTime(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{Game: "fccatan", Seats: 3, Seed: seed(4), Options: quickField,
		Clock: &orreryv1.Clock{WallClock: true, PerMove: durationpb.New(time.Minute)}})
	var mu sync.Mutex
	answered := map[int]int{}
	var wg sync.WaitGroup
	for i, s := range created.GetSeats() {
		r := random.New(uint64(i))
		bot := bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer {
			if i == 0 {
				time.Sleep(100 * time.Millisecond) // five ticks
			}
			mu.Lock()
			answered[i]++
			mu.Unlock()
			return r.Act(d)
		})
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := sdk.Play(ctx, h.conn, s.GetToken(), bot, sdk.Options{}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	r, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: created.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	advances, bySeat := 0, map[int32]int{}
	for _, s := range r.GetSteps() {
		if s.GetSeat() < 0 {
			advances++
		} else {
			bySeat[s.GetSeat()]++
		}
	}
	if advances == 0 {
		t.Fatal("the wall clock never advanced the match")
	}
	if bySeat[0] >= bySeat[1] || bySeat[0] >= advances {
		t.Errorf("the slow seat acted %d times, a fast seat %d, over %d clock steps: it should have lost steps", bySeat[0], bySeat[1], advances)
	}
	if r.GetMatch().GetResult().GetReason() != orreryv1.EndReason_END_REASON_NORMAL && r.GetMatch().GetResult().GetReason() != orreryv1.EndReason_END_REASON_CAP {
		t.Errorf("end: %v", r.GetMatch().GetResult())
	}
	t.Logf("clock steps %d; actions by seat %v", advances, bySeat)
}

// TestWallClock_TickJitter plays a 10 Hz match of four remote greedy teams over loopback and
// reports the p99 of how late the server's ticks fire. It asserts nothing about time: the
// machine is shared; the figure is for the notes.
func TestWallClock_TickJitter(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a real-time match for several seconds")
	}
	reg := prometheus.NewRegistry()
	metrics := NewMetrics(reg)
	_, conn := loopback(t, Config{Metrics: metrics})
	client := orreryv1.NewArenaServiceClient(conn)
	ctx := context.Background()
	opts := map[string]string{"tick_rate": "10", "round_seconds": "3", "round_cap": "2", "market_seconds": "1", "choice_seconds": "1",
		"map": "published", "top_speed_cm_s": "2000"}
	created, err := client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "fccatan", Seats: 4, Seed: seed(8), Options: opts,
		Clock: &orreryv1.Clock{WallClock: true}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i, s := range created.GetSeats() {
		bot, err := builtin.New("fccatan", "greedy", uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := sdk.Play(ctx, conn, s.GetToken(), bot, sdk.Options{}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	families, _ := reg.Gather()
	for _, f := range families {
		if f.GetName() == "orrery_tick_lateness_seconds" {
			h := f.GetMetric()[0].GetHistogram()
			t.Logf("10 Hz, 4 remote greedy teams: %d clock steps, tick lateness p50 <= %s, p99 <= %s", h.GetSampleCount(),
				quantile(h, 0.50), quantile(h, 0.99))
		}
	}
}

// quantile is the upper bound of the histogram bucket that holds quantile q.
func quantile(h *dto.Histogram, q float64) string {
	target := uint64(math.Ceil(q * float64(h.GetSampleCount())))
	buckets := h.GetBucket()
	sort.Slice(buckets, func(i, j int) bool { return buckets[i].GetUpperBound() < buckets[j].GetUpperBound() })
	for _, b := range buckets {
		if b.GetCumulativeCount() >= target {
			return fmt.Sprint(time.Duration(b.GetUpperBound() * float64(time.Second)))
		}
	}
	return "beyond the last bucket"
}

// A real-time match that does not choose a timeout policy keeps a silent team's intents (the
// game's default action); a turn-based one plays a random legal action.
func TestTimeoutPolicy_DefaultsByKindOfGame(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	for game, want := range map[string]orreryv1.TimeoutPolicy{
		"fccatan":    orreryv1.TimeoutPolicy_TIMEOUT_POLICY_DEFAULT,
		"icetraders": orreryv1.TimeoutPolicy_TIMEOUT_POLICY_RANDOM,
	} {
		created := h.create(&orreryv1.CreateMatchRequest{Game: game, Seats: 3})
		got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
		if err != nil {
			t.Fatal(err)
		}
		if p := got.GetMatch().GetTimeoutPolicy(); p != want {
			t.Errorf("%s: timeout policy %v, want %v", game, p, want)
		}
	}
}

// The arena's Prometheus series count what happened: matches, decisions, rejects, timeouts
// and decision latency.
func TestMetrics_CountTheMatch(t *testing.T) {
	reg := prometheus.NewRegistry()
	h := newHarness(t, Config{Metrics: NewMetrics(reg)})
	ctx := context.Background()
	// Long enough that the bots' answers count on a loaded machine (a 2 ms clock left the
	// latency histogram empty when every answer came late); the silent seat still times out.
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(5),
		Clock: &orreryv1.Clock{PerMove: durationpb.New(200 * time.Millisecond), TimeBank: durationpb.New(0)}})
	_, stream, d := seatToAct(t, h, ctx, created)
	answer(t, stream, &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: -1}})
	h.playRandom(ctx, created, map[int]bool{0: true})
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			got[f.GetName()] += m.GetCounter().GetValue() + float64(m.GetHistogram().GetSampleCount())
		}
	}
	for _, name := range []string{"orrery_matches_started_total", "orrery_matches_finished_total", "orrery_decisions_total",
		"orrery_rejects_total", "orrery_timeouts_total", "orrery_decision_latency_seconds"} {
		if got[name] == 0 {
			t.Errorf("%s is zero after a match with answers, a rejection and timeouts", name)
		}
	}
}
