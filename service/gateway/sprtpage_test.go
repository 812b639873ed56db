package gateway

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	botladder "github.com/orrery/orrery/bots/ladder"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestBrowser_SPRTPageFollowsARunningTestToItsDecision: a person finds a running strength test
// of a registered bot on the home page, opens it, and watches it: the page says it is
// running, then, as the bot plays, follows it without a reload to its decision, with the
// numbers the server reports (games, LLR between its bounds), the LLR drawn over every counted
// pair, and each pair's two replays linked once the test has ended.
func TestBrowser_SPRTPageFollowsARunningTestToItsDecision(t *testing.T) {
	a := newArena(t, arenaOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lad := orreryv1.NewLadderServiceClient(a.conn)
	reg, err := lad.RegisterBot(ctx, &orreryv1.RegisterBotRequest{Name: "lab-bot"})
	if err != nil {
		t.Fatal(err)
	}
	// The bot plays greedy, but only once the gate opens: until then its first game waits.
	g := newGate(false)
	connected := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		botladder.Run(ctx, a.conn, botladder.Options{APIKey: reg.GetApiKey(), TournamentsOnly: true, MaxMatches: 4,
			OnConnect: func(n int) {
				if n == 0 {
					close(connected)
				}
			},
			NewBot: func(j *orreryv1.Joined) (bots.Bot, error) {
				inner, err := builtin.New(j.GetGame(), "greedy", uint64(j.GetSeat())+1)
				if err != nil {
					return nil, err
				}
				return bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer { g.wait(ctx); return inner.Act(d) }), nil
			}})
	}()
	defer func() { cancel(); <-done }()
	<-connected
	sprts := orreryv1.NewSPRTServiceClient(a.conn)
	elo1 := 100.0
	start, err := sprts.StartSPRT(ctx, &orreryv1.StartSPRTRequest{Game: "icetraders", Candidate: "lab-bot", Baseline: "random",
		Opponents: []string{"random"}, Seats: 2, Elo1: &elo1, MaxGames: 400,
		// No clock runs out while the gate is shut on a slow machine.
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute), TimeBank: durationpb.New(10 * time.Minute)}})
	if err != nil {
		t.Fatal(err)
	}
	id := start.GetSprt().GetSprtId()

	b := newBrowser(t)
	b.do(chromedp.Navigate(a.web.url + "/#/"))
	row := fmt.Sprintf(`#home-sprts tr[data-sprt=%q] a`, id)
	b.until(fmt.Sprintf(`document.querySelector(%q) !== null`, row))
	b.do(chromedp.Click(row))
	b.until(`document.querySelector('#sprt[data-status="running"] #decision') !== null`)
	if got := eval[string](b, `document.querySelector('#decision').textContent`); !strings.HasPrefix(got, "running") {
		t.Errorf("a running test's page says %q", got)
	}
	if got := eval[int](b, `document.querySelectorAll('#llr .bound').length`); got != 2 {
		t.Errorf("the LLR plot draws %d bounds, want 2", got)
	}
	if got := eval[int](b, `document.querySelectorAll('#pairs a[href^="#/match/"]').length`); got != 0 {
		t.Errorf("a running test links %d replays", got)
	}
	// A mark in the page: if it is still there at the decision, the page followed the test
	// itself, without being reloaded.
	eval[bool](b, `window.followed = true`)
	g.release()
	b.until(`document.querySelector('#sprt[data-status="finished"]') !== null`)
	if !eval[bool](b, `window.followed === true`) {
		t.Error("the page was reloaded to reach the decision")
	}

	got, err := sprts.GetSPRT(ctx, &orreryv1.GetSPRTRequest{SprtId: id})
	if err != nil {
		t.Fatal(err)
	}
	s := got.GetSprt()
	if s.GetDecision() != "H1" {
		t.Fatalf("the test decided %q after %d games; greedy against random should be H1", s.GetDecision(), s.GetGames())
	}
	if d := eval[string](b, `document.querySelector('#decision').dataset.decision`); d != s.GetDecision() {
		t.Errorf("the page shows decision %q, the server %q", d, s.GetDecision())
	}
	if games, _ := strconv.Atoi(eval[string](b, `document.querySelector('#sprt').dataset.games`)); games != int(s.GetGames()) {
		t.Errorf("the page shows %d games, the server %d", games, s.GetGames())
	}
	numbers := eval[string](b, `document.querySelector('#numbers').textContent`)
	for _, want := range []string{fmt.Sprintf("LLR %.2f [%.2f, %.2f]", s.GetLlr(), s.GetLlrLower(), s.GetLlrUpper()), "Elo ", "LOS "} {
		if !strings.Contains(numbers, want) {
			t.Errorf("the numbers %q do not say %q", numbers, want)
		}
	}
	if n, _ := strconv.Atoi(eval[string](b, `document.querySelector('#llr polyline.llr').dataset.pairs`)); n != int(s.GetPairs()) {
		t.Errorf("the LLR line has %d pairs, the test %d", n, s.GetPairs())
	}
	last := s.GetPairList()[len(s.GetPairList())-1]
	links := eval[[]string](b, `[...document.querySelectorAll('#pairs tbody tr:first-child a')].map((a) => a.getAttribute('href'))`)
	if want := []string{"#/match/" + last.GetCandidateMatchId(), "#/match/" + last.GetBaselineMatchId()}; strings.Join(links, " ") != strings.Join(want, " ") {
		t.Errorf("the newest pair links %v, want %v", links, want)
	}
	if rows := eval[int](b, `document.querySelectorAll('#pairs tbody tr').length`); rows != min(len(s.GetPairList()), 200) {
		t.Errorf("the page lists %d pairs of %d", rows, len(s.GetPairList()))
	}
	b.screenshot("sprt-page")
}
