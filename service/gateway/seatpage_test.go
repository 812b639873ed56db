package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// frames records the WebSocket frames a tab receives: what the Play bridge sent the page.
type frames struct {
	mu  sync.Mutex
	got []string
}

func (f *frames) listen(t *testing.T, ctx context.Context) {
	err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventWebSocketFrameReceived); ok {
			f.mu.Lock()
			f.got = append(f.got, string(e.Response.PayloadData))
			f.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (f *frames) all() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.got...)
}

// othersSecrets walks a JSON value for another seat's secret: an alignment (IceTraders) or an
// objective (Planet) beside a seat that is not me, or a list of every seat's alignments.
func othersSecrets(v any, me float64, path string, found *[]string) {
	switch x := v.(type) {
	case map[string]any:
		seat, hasSeat := x["seat"].(float64)
		for k, c := range x {
			p := path + "." + k
			switch k {
			case "alignment":
				if s := fmt.Sprint(c); hasSeat && seat != me && (s == "ALIGNMENT_GOOD" || s == "ALIGNMENT_EVIL") {
					*found = append(*found, fmt.Sprintf("%s=%s (seat %v)", p, s, seat))
				}
			case "alignments":
				if s := fmt.Sprint(c); strings.Contains(s, "ALIGNMENT_GOOD") || strings.Contains(s, "ALIGNMENT_EVIL") {
					*found = append(*found, p+"="+s)
				}
			case "objective", "habitat":
				if o, ok := c.(map[string]any); ok && hasSeat && seat != me && o["habitat"] != nil && o["habitat"] != "HABITAT_UNSPECIFIED" {
					*found = append(*found, fmt.Sprintf("%s=%v (seat %v)", p, o["habitat"], seat))
				}
				if s, ok := c.(string); ok && k == "habitat" && hasSeat && seat != me && s != "HABITAT_UNSPECIFIED" && x["place"] == nil {
					*found = append(*found, fmt.Sprintf("%s=%s (seat %v)", p, s, seat))
				}
			}
			othersSecrets(c, me, p, found)
		}
	case []any:
		for i, c := range x {
			othersSecrets(c, me, fmt.Sprintf("%s[%d]", path, i), found)
		}
	}
}

func TestBrowser_SeatSeesNoOtherSeatsSecrets(t *testing.T) {
	cases := []struct {
		game  string
		seats int
		bad   []string // text the person's page must not hold while the match runs
		// play is the person's clicks through the secret part of the match.
		play func(b *browser)
	}{
		{"icetraders", 3, []string{"evil"}, func(b *browser) { // the bots choose evil, the person good
			for _, step := range []string{`[data-key="align good"]`, `[data-key^="first:"]`, `[data-key^="second:"]`} {
				b.until(fmt.Sprintf(`document.querySelector('#controls button%s')`, step))
				b.do(chromedp.Click(`#controls button` + step))
			}
			b.until(`document.querySelector('#log').textContent.includes('goes first')`) // the picks are revealed
		}},
		{"planet", 2, nil, func(b *browser) {
			b.until(`document.querySelector('#board .tile.selectable')`)
			b.do(chromedp.Click(`#board .tile.selectable`))
			b.until(`document.querySelector('#board .overlay .dot[data-key]')`)
			b.do(chromedp.Click(`#board .overlay .dot[data-key]`))
			b.until(`document.querySelector('#controls #confirm')`)
			b.do(chromedp.Click(`#controls #confirm`))
			b.until(`!document.querySelector('#controls #confirm')`)
		}},
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			a := newArena(t, arenaOptions{})
			m := a.create(c.game, c.seats, 41)
			b := newBrowser(t)
			var got frames
			got.listen(t, b.ctx)
			var decisions atomic.Int32
			var botSaw sync.Map // a decision of seat 1, which holds seat 1's own secret
			g := newGate(true)
			ctx, cancel := context.WithCancel(context.Background())
			wait := a.playSeats(ctx, c.game, m.GetSeats()[1:], 0, g, func(d *orreryv1.Decision) *orreryv1.Answer {
				if d.GetSeat() == 1 {
					botSaw.Store("decision", d)
				}
				// Past the secret choices, hold the match still so it cannot end under the test.
				if decisions.Add(1) == int32(2*(c.seats-1)) {
					g.shut()
				}
				for i, n := range d.GetLegalNotation() {
					if n == "align evil" {
						return &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: int32(i)}}
					}
				}
				return nil
			})
			defer func() { cancel(); g.release(); wait() }()
			b.do(chromedp.Navigate(a.web.url + "/#/seat/" + m.GetSeats()[0].GetToken()))
			c.play(b)
			sum, err := a.client.GetMatch(context.Background(), &orreryv1.GetMatchRequest{MatchId: m.GetMatchId()})
			if err != nil || sum.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
				t.Fatalf("the match must still run: %v %v", sum.GetMatch().GetStatus(), err)
			}
			html := strings.ToLower(eval[string](b, `document.documentElement.outerHTML`))
			for _, w := range c.bad {
				if i := strings.Index(html, w); i >= 0 {
					t.Errorf("the person's page holds %q: …%s…", w, html[max(0, i-80):min(len(html), i+40)])
				}
			}
			var leaks []string
			fs := got.all()
			for _, f := range fs {
				var v any
				if err := json.Unmarshal([]byte(f), &v); err != nil {
					t.Fatalf("a frame that is not JSON: %.80s", f)
				}
				othersSecrets(v, 0, "frame", &leaks)
			}
			for path, body := range a.received() {
				if !strings.HasPrefix(path, "/v1/") || path == "/v1/games" {
					continue
				}
				var v any
				if err := json.Unmarshal([]byte(body), &v); err == nil {
					othersSecrets(v, 0, path, &leaks)
				}
			}
			for _, l := range leaks {
				t.Errorf("the person's page received another seat's secret: %s", l)
			}
			if len(fs) < 3 {
				t.Errorf("the page received %d frames: the scan saw nothing", len(fs))
			}
			// Seat 1's own decision, in the JSON the bridge sends, holds seat 1's secret: the
			// same scan finds it there, so it would have found it in the person's frames.
			d, ok := botSaw.Load("decision")
			if !ok {
				t.Fatal("no decision of seat 1 was seen")
			}
			raw, err := Marshaler.Marshal(&orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Decision{Decision: d.(*orreryv1.Decision)}})
			if err != nil {
				t.Fatal(err)
			}
			var v any
			json.Unmarshal(raw, &v)
			var control []string
			othersSecrets(v, 0, "seat 1's decision", &control)
			if len(control) == 0 {
				t.Error("the scan finds no secret in seat 1's own decision: it cannot be trusted to find a leak")
			}
			b.screenshot("secrets-seat-" + c.game)
		})
	}
}

func TestBrowser_SeatPageRestoresOnReloadAndLosesToASecondTab(t *testing.T) {
	a := newArena(t, arenaOptions{})
	m := a.createWith("planet", 2, 9, map[string]string{"turn_cap": "4"}, "you", "greedy")
	b := newBrowser(t)
	defer a.openSeat(b, "planet", "greedy", m, 0)()
	// Two placements, then a reload: the whole log and the board come back.
	for n := 0; n < 2; n++ {
		b.until(`document.querySelector('#board [data-key].selectable')`)
		b.do(chromedp.Click(`#board .tile.selectable`))
		b.until(`document.querySelector('#board .overlay .dot[data-key]')`)
		b.do(chromedp.Click(`#board .overlay .dot[data-key]`))
		b.until(`document.querySelector('#controls #confirm')`)
		b.do(chromedp.Click(`#controls #confirm`))
		b.until(`!document.querySelector('#controls #confirm')`)
	}
	b.until(`document.querySelector('#board [data-key].selectable')`)
	before := eval[int](b, `document.querySelectorAll('#log div').length`)
	b.do(chromedp.Reload())
	b.until(fmt.Sprintf(`document.querySelectorAll('#log div').length >= %d && document.querySelector('#board [data-key].selectable')`, before))
	if got := eval[string](b, `document.querySelector('#log').textContent`); !strings.Contains(got, "seat 0 (you) placed tile") {
		t.Errorf("after a reload the log lost the person's placements: %.300s", got)
	}
	// A second tab takes the seat: the first is told, and offers nothing to click.
	second, cancel := chromedp.NewContext(b.ctx)
	defer cancel()
	if err := chromedp.Do(second, chromedp.Navigate(a.web.url+"/#/seat/"+m.GetSeats()[0].GetToken())); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(second, chromedp.Poll[any](`document.querySelector('#board [data-key].selectable')`, chromedp.WithPollingTimeout(time.Minute))); err != nil {
		t.Fatal(err)
	}
	b.until(`document.querySelector('#lostseat') !== null`)
	if n := eval[int](b, `document.querySelectorAll('#yourmove, #controls button, #board .selectable, #board .overlay .dot[data-key]').length`); n != 0 {
		t.Errorf("the tab that lost the seat still offers %d controls", n)
	}
	b.screenshot("seat-lost")
}

func TestBrowser_PersonResigns(t *testing.T) {
	a := newArena(t, arenaOptions{})
	m := a.createWith("planet", 2, 5, nil, "you", "greedy")
	b := newBrowser(t)
	defer a.openSeat(b, "planet", "greedy", m, 0)()
	b.until(`document.querySelector('#resign') && document.querySelector('#board .tile.selectable')`)
	// One click arms it; the second resigns.
	b.do(chromedp.Click(`#resign`))
	b.until(`document.querySelector('#resign').textContent === 'really resign?'`)
	b.do(chromedp.Click(`#resign`))
	b.until(`document.querySelector('#result') !== null`)
	if got := eval[string](b, `document.querySelector('#result').textContent`); !strings.Contains(got, "ranked 2 of 2") || !strings.Contains(got, "seat 0 (you) resigned") {
		t.Errorf("after resigning the page says %q", got)
	}
	sum, err := a.client.GetMatch(context.Background(), &orreryv1.GetMatchRequest{MatchId: m.GetMatchId()})
	if err != nil || sum.GetMatch().GetResult().GetReason() != orreryv1.EndReason_END_REASON_FORFEIT {
		t.Errorf("the match ended %v (%v), want a forfeit", sum.GetMatch().GetResult().GetReason(), err)
	}
}
