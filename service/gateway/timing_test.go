package gateway

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/orrery/orrery/bots"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestBrowser_ReplayShowsNotesThinkTimesAndATimingStrip: a finished match's replay shows,
// beside the board, the move's think time and the bot's note, and below it a timing strip per
// seat with a bar per decision; clicking a bar goes to its ply.
func TestBrowser_ReplayShowsNotesThinkTimesAndATimingStrip(t *testing.T) {
	a := newArena(t, arenaOptions{})
	m := a.create("planet", 2, 4)
	a.playSeats(context.Background(), "planet", m.GetSeats(), 0, nil, func(d *orreryv1.Decision) *orreryv1.Answer {
		if d.GetSeat() != 0 {
			return nil
		}
		return bots.Noted(bots.Index(d, 0), "seat 0 took the first of %d placements at ply %d", bots.Count(d), d.GetPly())
	})()
	rep, err := a.client.GetReplay(context.Background(), &orreryv1.GetReplayRequest{MatchId: m.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	first, seat0 := -1, 0
	for i, st := range rep.GetSteps() {
		if st.GetSeat() == 0 {
			seat0++
			if first < 0 {
				first = i
			}
		}
	}
	if first < 0 {
		t.Fatal("seat 0 made no move")
	}
	b := newBrowser(t)
	b.do(chromedp.Navigate(a.web.url + "/#/match/" + m.GetMatchId()))
	// The board drawn first: drawing it moves what lies below it, the strip among them.
	b.until(`document.querySelector('#timing') && document.querySelector('#movelab') && document.querySelector('#board').dataset.ply !== undefined`)
	if got := eval[int](b, `document.querySelectorAll('#timing .strip[data-seat="0"] .bar').length`); got != seat0 {
		t.Errorf("seat 0's strip has %d bars for its %d moves", got, seat0)
	}
	if got := eval[int](b, `document.querySelectorAll('#timing .strip').length`); got != 2 {
		t.Errorf("%d strips for 2 seats", got)
	}
	// Seat 0's first move: its note whole and its think time beside the board.
	b.do(chromedp.Click(fmt.Sprintf(`#timing .bar[data-ply="%d"]`, first+1)))
	b.until(fmt.Sprintf(`document.querySelector('#board').dataset.target === '%d'`, first+1))
	b.until(`document.querySelector('#movelab #note') !== null`)
	note := eval[string](b, `document.querySelector('#movelab #note').textContent`)
	if want := rep.GetSteps()[first].GetNote(); note != want || !strings.HasPrefix(note, "seat 0 took the first of ") {
		t.Errorf("the note beside the board is %q, want %q", note, want)
	}
	if got := eval[string](b, `document.querySelector('#movelab #thinktime').textContent`); !strings.HasPrefix(got, "thought ") || !strings.HasSuffix(got, " ms") {
		t.Errorf("the think time beside the board reads %q", got)
	}
	// The move list marks it too, in its row.
	if got := eval[string](b, fmt.Sprintf(`document.querySelector('#steps [data-ply="%d"] .note').title`, first+1)); got != note {
		t.Errorf("the move list's note is %q, want %q", got, note)
	}
	b.screenshot("replay-timing")
}
