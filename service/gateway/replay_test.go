package gateway

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

func TestBrowser_ReplayScrubAndKeys(t *testing.T) {
	a := newArena(t, arenaOptions{})
	m := a.create("icetraders", 3, 8)
	a.playSeats(context.Background(), "icetraders", m.GetSeats(), 0, nil, nil)()
	b := newBrowser(t)
	// The URL's ply opens the replay at that ply.
	b.do(chromedp.Navigate(a.web.url + "/#/match/" + m.GetMatchId() + "?ply=5"))
	b.until(`document.querySelector('#board')?.dataset.ply === '5'`)
	plies := eval[int](b, `Number(document.querySelector('#scrub').max)`)
	if plies < 12 {
		t.Fatalf("a replay of %d plies is too short for this test", plies)
	}
	if got := eval[string](b, `document.querySelector('#plylabel').textContent`); got != fmt.Sprintf("5 / %d", plies) {
		t.Errorf("the ply label reads %q at ply 5", got)
	}
	// The last move is marked in the move list, and the list draws only the rows in sight.
	if got := eval[string](b, `document.querySelector('#steps .current')?.dataset.ply || ''`); got != "5" {
		t.Errorf("the move list marks ply %q, want 5", got)
	}
	// The arrow keys step; the URL follows.
	b.do(chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
	b.until(`document.querySelector('#board').dataset.ply === '7'`)
	b.do(chromedp.KeyEvent(kb.ArrowLeft))
	b.until(`document.querySelector('#board').dataset.ply === '6'`)
	b.until(`location.hash.endsWith('?ply=6')`)
	// The scrubber moves the board to the ply it is dragged to.
	target := plies - 3
	eval[bool](b, fmt.Sprintf(`(() => { const s = document.querySelector('#scrub'); s.value = %d; s.dispatchEvent(new Event('input')); return true; })()`, target))
	b.until(fmt.Sprintf(`document.querySelector('#board').dataset.ply === '%d'`, target))
	// The board is that ply's: its ships are the view's.
	v, err := orreryv1.NewViewServiceClient(a.conn).GetView(context.Background(), &orreryv1.GetViewRequest{MatchId: m.GetMatchId(), Ply: int64(target)})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, s := range v.GetObservation().GetIcetraders().GetSystems() {
		want += len(s.GetShips())
	}
	for _, h := range v.GetObservation().GetIcetraders().GetHyperspaces() {
		want += len(h.GetShips())
	}
	if got := eval[int](b, `document.querySelectorAll('#icetraders .ship').length`); got != want {
		t.Errorf("ply %d: %d ships drawn, the view has %d", target, got, want)
	}
	// Space plays to the end; End and Home jump.
	b.do(chromedp.KeyEvent(" "))
	b.until(fmt.Sprintf(`document.querySelector('#board').dataset.ply === '%d'`, plies))
	b.do(chromedp.KeyEvent(kb.Home))
	b.until(`document.querySelector('#board').dataset.ply === '0'`)
	// A reload opens at the ply the URL holds.
	b.do(chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
	b.until(`location.hash.endsWith('?ply=3')`)
	b.do(chromedp.Reload())
	b.until(`document.querySelector('#board')?.dataset.ply === '3'`)
	if n := eval[string](b, `document.querySelector('#download').getAttribute('href')`); !strings.HasSuffix(n, "/replay") {
		t.Errorf("the download link is %q", n)
	}
}

func TestBrowser_FastPlaybackKeepsUp(t *testing.T) {
	a := newArena(t, arenaOptions{})
	// PanTropia: over a thousand plies, each view a real position to draw in 3D.
	m := a.create("pantropia", 3, 12)
	a.playSeats(context.Background(), "pantropia", m.GetSeats(), 0, nil, nil)()
	b := newBrowser(t)
	b.do(chromedp.Navigate(a.web.url + "/#/match/" + m.GetMatchId() + "?ply=0"))
	b.until(`document.querySelector('#board')?.dataset.ply === '0'`)
	plies := eval[int](b, `Number(document.querySelector('#scrub').max)`)
	b.do(chromedp.SetValue(`#speed`, "100"))
	eval[bool](b, `document.querySelector('#speed').dispatchEvent(new Event('change'))`)
	b.do(chromedp.Click(`#playpause`))
	// Sample the counter (where playback is) and the board (the ply it drew) as it plays:
	// the board must follow, not freeze while the counter runs. How far behind it is depends
	// on how fast this machine draws; that it keeps moving, and skips plies to stay with the
	// counter rather than queueing them, does not.
	var drawn, lag []int
	for len(drawn) < 12 {
		time.Sleep(150 * time.Millisecond)
		at := eval[[]int](b, `[Number(document.querySelector('#board').dataset.target), Number(document.querySelector('#board').dataset.ply)]`)
		if at[0] >= plies {
			break
		}
		drawn = append(drawn, at[1])
		lag = append(lag, at[0]-at[1])
	}
	t.Logf("at 100 plies a second over %d plies, the board drew %v, behind the counter by %v", plies, drawn, lag)
	advanced, skipped := 0, 0
	for i := 1; i < len(drawn); i++ {
		if drawn[i] > drawn[i-1] {
			advanced++
		}
		if drawn[i] > drawn[i-1]+1 {
			skipped++
		}
	}
	if len(drawn) < 4 || advanced < (len(drawn)-1)/2 {
		t.Errorf("the board drew plies %v while playing: it froze", drawn)
	}
	if skipped == 0 {
		t.Errorf("the board drew plies %v one by one: it queues views instead of showing the latest", drawn)
	}
	b.until(fmt.Sprintf(`document.querySelector('#board').dataset.ply === '%d'`, plies))
}

func TestBrowser_LogNamesSeatZero(t *testing.T) {
	a := newArena(t, arenaOptions{})
	m := a.create("planet", 2, 21, "alice", "bob")
	a.playSeats(context.Background(), "planet", m.GetSeats(), 0, nil, nil)()
	rep, err := a.client.GetReplay(context.Background(), &orreryv1.GetReplayRequest{MatchId: m.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	// The replay's own record: a placement by seat 0 at face 0 or rotation 0, the zeros a log
	// that skips zero values loses.
	var want []string
	for _, e := range rep.GetEvents() {
		if p := e.GetGame().GetPlanet().GetTilePlaced(); p != nil && p.GetSeat() == 0 && (p.GetPlace().GetFace() == 0 || p.GetPlace().GetRotation() == 0) {
			want = append(want, fmt.Sprintf("seat 0 (alice) placed tile #%d on face %d, turned %d", p.GetPlace().GetTile(), p.GetPlace().GetFace(), p.GetPlace().GetRotation()))
		}
	}
	if len(want) == 0 {
		t.Fatal("the match has no placement by seat 0 with a zero in it")
	}
	b := newBrowser(t)
	// The log of each ply: the first such placement's ply shows it.
	b.do(chromedp.Navigate(a.web.url + "/#/match/" + m.GetMatchId()))
	b.until(`document.querySelector('#board')?.dataset.ply !== undefined && document.querySelectorAll('#log div').length > 0`)
	log := eval[string](b, `document.querySelector('#log').textContent`)
	found := false
	for _, w := range want {
		found = found || strings.Contains(log, w)
	}
	if !found {
		t.Errorf("the log names none of seat 0's placements %q: %.400s", want[0], log)
	}
	// The same names as the panel, and no field name or doubled enum in the text.
	if panel := eval[string](b, `document.querySelector('#boardinfo .planet[data-seat="0"]').textContent`); !strings.HasPrefix(panel, "seat 0 (alice)") {
		t.Errorf("the panel names seat 0 %q", panel)
	}
	for _, bad := range []string{"undefined", "=", "[object", "seat=", "kind"} {
		if strings.Contains(log, bad) {
			t.Errorf("the log holds %q: %.300s", bad, log)
		}
	}
}
