package gateway

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// A person makes a match against the server's bots on the New match form, and aborts it
// from the seat page: two clicks end it for everyone as aborted, and both the seat page and
// the match's page say so. Only the browser that made the match can: its creator token is
// in no link, no page of the match's, no WebSocket frame, only the create's answer.
func TestBrowser_PersonAbortsTheMatch(t *testing.T) {
	a := newArena(t, arenaOptions{})
	b := newBrowser(t)
	var got frames
	got.listen(t, b.ctx)
	b.openNewMatchForm(a.web.url, "icetraders", 3)
	if got := eval[string](b, `[...document.querySelectorAll('#seatrows select.seatwho')].map((s) => s.value).join(',')`); got != "you,greedy,greedy" {
		t.Fatalf("the seats are %q", got)
	}
	b.do(chromedp.Click(`#create`))
	b.until(`location.hash.startsWith('#/seat/')`)
	seatURL := eval[string](b, `location.href`)
	b.until(`document.querySelector('#abort') !== null && document.querySelector('#board').dataset.ply !== undefined`)

	ms, err := a.client.ListMatches(context.Background(), &orreryv1.ListMatchesRequest{})
	if err != nil || len(ms.GetMatches()) != 1 {
		t.Fatalf("%d matches: %v", len(ms.GetMatches()), err)
	}
	id := ms.GetMatches()[0].GetMatchId()
	creator := eval[string](b, `localStorage.getItem('orrery-creator:`+id+`') || ''`)
	if creator == "" {
		t.Fatal("the page kept no creator token for the match it made")
	}
	if strings.Contains(seatURL, creator) {
		t.Error("the seat's link holds the creator token")
	}

	// The match's own page offers the creator the same control.
	b.do(chromedp.Navigate(a.web.url + "/#/match/" + id))
	b.until(`document.querySelector('#status') && document.querySelector('#abort') !== null`)
	b.do(chromedp.Navigate(seatURL))
	b.until(`document.querySelector('#abort') !== null && document.querySelector('#board').dataset.ply !== undefined`)

	// One click arms it; the second aborts.
	b.do(chromedp.Click(`#abort`))
	b.until(`document.querySelector('#abort').textContent === 'really abort?'`)
	b.do(chromedp.Click(`#abort`))
	b.until(`document.querySelector('#result') !== null`)
	if got := eval[string](b, `document.querySelector('#yourmove').textContent`); !strings.Contains(got, "The match was aborted") || !strings.Contains(got, "aborted by its creator") {
		t.Errorf("after the abort the seat page says %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll('#abort, #resign, #controls button').length`); n != 0 {
		t.Errorf("the aborted match's page still offers %d controls", n)
	}
	sum, err := a.client.GetMatch(context.Background(), &orreryv1.GetMatchRequest{MatchId: id})
	if err != nil || sum.GetMatch().GetResult().GetReason() != orreryv1.EndReason_END_REASON_ABORTED {
		t.Fatalf("the match ended %v (%v), want aborted", sum.GetMatch().GetResult(), err)
	}
	if eval[bool](b, `localStorage.getItem('orrery-creator:`+id+`') !== null`) {
		t.Error("the creator token was kept after the match ended")
	}
	b.do(chromedp.Navigate(a.web.url + "/#/match/" + id))
	b.until(`document.querySelector('#board') && document.querySelector('#board').dataset.ply !== undefined`)
	if got := eval[string](b, `document.body.textContent`); !strings.Contains(got, "aborted by its creator") {
		t.Errorf("the match's page does not say it was aborted: %.400s", got)
	}

	// The token went out once, in the create's answer, and came back once, to abort.
	for path, body := range a.received() {
		if strings.Contains(body, creator) && path != "/v1/matches" {
			t.Errorf("%s sent the creator token", path)
		}
	}
	if r := a.received()["/v1/matches"]; !strings.Contains(r, creator) {
		t.Errorf("the create's answer (%.200s) is not where the token came from", r)
	}
	for _, f := range got.all() {
		if strings.Contains(f, creator) {
			t.Errorf("a WebSocket frame holds the creator token: %.200s", f)
		}
	}
}
