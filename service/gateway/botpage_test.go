package gateway

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestBrowser_BotPageShowsRatingHistoryRecentMatchesAndHeadToHead: a bot's page, reached from
// the leaderboard, draws its rating over its rated matches (a point per match, with axes and
// a hover text), lists its recent matches with their replays, and counts the games it played
// against each bot it met, as the matches' summaries say.
func TestBrowser_BotPageShowsRatingHistoryRecentMatchesAndHeadToHead(t *testing.T) {
	a := newArena(t, arenaOptions{houseMatches: 2, houseGames: []string{"planet"}})
	ctx := context.Background()
	lad := orreryv1.NewLadderServiceClient(a.conn)
	var bot string
	deadline := time.Now().Add(2 * time.Minute)
	for bot == "" {
		board, err := lad.GetLeaderboard(ctx, &orreryv1.GetLeaderboardRequest{Game: "planet"})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range board.GetEntries() {
			if e.GetGames() >= 3 {
				bot = e.GetBot()
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no bot with three rated planet matches within two minutes")
		}
		time.Sleep(200 * time.Millisecond)
	}
	b := newBrowser(t)
	b.do(chromedp.Navigate(a.web.url + "/#/standings/planet"))
	b.until(fmt.Sprintf(`document.querySelector('#standings tr[data-bot=%q] a') !== null`, bot))
	b.do(chromedp.Click(fmt.Sprintf(`#standings tr[data-bot=%q] a`, bot)))
	b.until(`document.querySelectorAll('#history .point').length >= 3 && document.querySelectorAll('#h2h tbody tr').length > 0`)

	// What the page drew, against the API's own record of the bot at that moment.
	points := eval[int](b, `document.querySelectorAll('#history .point').length`)
	info, err := lad.GetBot(ctx, &orreryv1.GetBotRequest{Name: bot, RecentMatches: 200})
	if err != nil {
		t.Fatal(err)
	}
	var rated []*orreryv1.RatedMatch
	for _, r := range info.GetRecent() {
		if r.GetGame() == "planet" {
			rated = append(rated, r)
		}
	}
	if points < 3 || points > len(rated) {
		t.Errorf("the history has %d points; the bot had %d rated planet matches", points, len(rated))
	}
	if got := eval[int](b, `document.querySelectorAll('#history .axes .tick').length`); got < 5 {
		t.Errorf("the history's axes have %d ticks", got)
	}
	hover := eval[string](b, `document.querySelector('#history .point title').textContent`)
	if !strings.Contains(hover, "rank ") || !strings.Contains(hover, "mu ") {
		t.Errorf("a point's hover text: %q", hover)
	}
	if got := eval[int](b, `document.querySelectorAll('#recent a[href^="#/match/"]').length`); got < 3 {
		t.Errorf("%d recent matches link to their replays", got)
	}
	// Head to head: the games against the first bot listed, counted from the summaries of
	// the matches the page read (the bot's newest, up to 50, as it drew them).
	against := eval[string](b, `document.querySelector('#h2h tbody tr').dataset.bot`)
	games, _ := strconv.Atoi(eval[string](b, `document.querySelector('#h2h tbody tr td:nth-child(2)').textContent`))
	want := 0
	for _, r := range rated[len(rated)-points:] {
		m, err := a.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: r.GetMatchId()})
		if err != nil {
			t.Fatal(err)
		}
		for _, si := range m.GetMatch().GetSeatInfo() {
			if si.GetName() == against {
				want++
			}
		}
	}
	if games != want {
		t.Errorf("head to head against %s: %d games shown, %d in the matches' summaries", against, games, want)
	}
	b.screenshot("bot-page")
}
