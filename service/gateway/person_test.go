package gateway

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"google.golang.org/protobuf/types/known/durationpb"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
)

// createWith starts a match with options and a clock a person can keep (no timeouts while a
// browser is slow).
func (a *arena) createWith(game string, seats int, seed uint64, options map[string]string, names ...string) *orreryv1.CreateMatchResponse {
	a.t.Helper()
	resp, err := a.client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{
		Game: game, Seats: int32(seats), Seed: &seed, SeatNames: names, Options: options,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute), TimeBank: durationpb.New(5 * time.Minute)},
	})
	if err != nil {
		a.t.Fatal(err)
	}
	return resp
}

// clicks counts what a person clicked on a seat page.
type clicks struct {
	board, controls, confirms, offers int
	// paths counts the moves chosen by two or more clicks on the board (a piece, then where).
	paths int
}

// pickJS marks what a person would click next on a seat page, and says what it is: a lit
// piece of the board ("board"), a control ("control"), the confirm button ("confirm"), or
// nothing yet (""). n varies the choice from click to click, as a person's would.
const pickJS = `((n, offered) => {
  document.querySelectorAll('[data-pick]').forEach((e) => e.removeAttribute('data-pick'));
  const lit = [...document.querySelectorAll('#board [data-key].selectable, #board .overlay .dot[data-key]')];
  const ctl = [...document.querySelectorAll('#controls > button')].filter((b) => b.id !== 'cancel' && b.id !== 'confirm' && b.id !== 'turnleft' && b.id !== 'turnright');
  const ok = document.querySelector('#controls #confirm');
  const spot = (e) => (e.matches('.ship') ? e.querySelector('.halo') : e.querySelector('.marker') || e.querySelector('.well')) || e;
  const mark = (e, what) => { spot(e).setAttribute('data-pick', n); return what; };
  if (ok && (n % 3 !== 0 || (!lit.length && !ctl.length))) return mark(ok, 'confirm');
  // Now and then a trade, built in the offer builder.
  if (document.querySelector('#offerbuilder') && (!offered || n % 6 === 0)) return 'offer';
  // A person mostly plays on the board, and passes or ends a turn only now and then.
  const quiet = ctl.filter((b) => !/^(pass|end turn|end the sacrifice|decline|skip)/.test(b.textContent));
  if (lit.length && (n % 5 !== 0 || !ctl.length)) return mark(lit[n % lit.length], 'board');
  if (quiet.length && n % 7 !== 0) return mark(quiet[n % quiet.length], 'control');
  if (ctl.length) return mark(ctl[n % ctl.length], 'control');
  if (lit.length) return mark(lit[n % lit.length], 'board');
  return '';
})`

// playByClicks plays the seat page a person has open by clicking, until the match ends. It
// fails on a rejection of something the page lit up (the page offers only what is legal).
func (b *browser) playByClicks(limit int) clicks {
	b.t.Helper()
	var c clicks
	inPath := 0
	for n := 1; n <= limit; n++ {
		b.until(`document.querySelector('#result') || document.querySelector('#lostseat') || (document.querySelector('#controls')?.dataset.decision && (document.querySelector('#board [data-key].selectable, #board .overlay .dot[data-key]') || document.querySelector('#controls button')))`)
		if eval[bool](b, `document.querySelector('#result') !== null`) {
			return c
		}
		draws := eval[string](b, `document.querySelector('#board').dataset.draws`)
		what := eval[string](b, fmt.Sprintf(`%s(%d, %v)`, pickJS, n, c.offers > 0))
		if what == "" {
			continue
		}
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		var err error
		if what == "offer" {
			// A person starts from a suggestion, then sends it once the page says it may.
			_, err = chromedp.Run(ctx, chromedp.Click(`#offerfill`))
			if err == nil && !eval[bool](b, `!document.querySelector('#offersend').disabled`) {
				b.t.Errorf("a suggested offer is not one the page lets the person send: %s", eval[string](b, `document.querySelector('#offerstatus').textContent`))
			}
			if err == nil {
				_, err = chromedp.Run(ctx, chromedp.Click(`#offersend`))
			}
			c.offers++
		} else {
			_, err = chromedp.Run(ctx, chromedp.Click(fmt.Sprintf(`[data-pick="%d"]`, n)))
		}
		cancel()
		if err != nil {
			continue // the page redrew under the click (a new decision): look again
		}
		switch what {
		case "board":
			c.board++
			inPath++
			if inPath == 2 {
				c.paths++
			}
		case "control":
			c.controls++
		case "confirm":
			c.confirms++
		}
		if !b.within(10*time.Second, fmt.Sprintf(`document.querySelector('#result') || document.querySelector('#board').dataset.draws !== %q || (document.querySelector('#rejected')?.textContent || '') !== ''`, draws)) {
			b.t.Logf("click %d (%s) changed nothing: %s", n, what, eval[string](b, `(document.querySelector('#yourmove')?.innerText || '') + ' / ' + (document.querySelector('[data-pick]')?.outerHTML || 'the clicked element is gone')`))
			continue
		}
		if eval[bool](b, `document.querySelector('#result') !== null`) {
			return c
		}
		if rej := eval[string](b, `document.querySelector('#rejected')?.textContent || ''`); rej != "" {
			b.t.Logf("debug: %s", eval[string](b, `document.querySelector('#yourmove')?.innerText || ''`))
			if !strings.Contains(rej, "stale") {
				b.t.Errorf("the server refused what the page offered (click %d, %s): %s", n, what, rej)
			}
			eval[bool](b, `(document.querySelector('#rejected') && (document.querySelector('#rejected').textContent = ''), true)`)
		}
		if eval[string](b, `document.querySelector('#controls')?.dataset.decision || ''`) != "" && eval[int](b, `document.querySelectorAll('#controls #cancel').length`) == 0 {
			inPath = 0 // nothing chosen: the next click starts a move
		}
	}
	b.t.Fatalf("the match did not end within %d clicks (%+v): %s", limit, c, eval[string](b, `document.querySelector('#yourmove').innerText + ' / dots ' + document.querySelectorAll('#board .overlay .dot[data-key]').length`))
	return c
}

// openSeat opens seat s's page, with the other seats played by the built-in bot named bot;
// the returned function stops the bots.
func (a *arena) openSeat(b *browser, game, bot string, m *orreryv1.CreateMatchResponse, s int32) func() {
	var bots []*orreryv1.SeatToken
	var mine string
	for _, st := range m.GetSeats() {
		if st.GetSeat() == s {
			mine = st.GetToken()
		} else {
			bots = append(bots, st)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	wait := a.playSeatsAs(ctx, game, bot, bots, 0, nil, nil)
	b.do(chromedp.Navigate(a.web.url + "/#/seat/" + mine))
	return func() { cancel(); wait() }
}

func TestBrowser_HumanPlaysIceTradersToTheEnd(t *testing.T) {
	a := newArena(t, arenaOptions{})
	b := newBrowser(t)
	m := a.createWith("icetraders", 3, seedFromEnv(5), map[string]string{"turn_cap": "12"}, "you", "random", "random")
	defer a.openSeat(b, "icetraders", "random", m, 0)()
	b.until(`document.querySelector('#icetraders') !== null || document.querySelector('#controls button') !== null`)
	c := b.playByClicks(600)
	b.until(`document.querySelector('#board').dataset.ended === 'true'`)
	t.Logf("the person clicked %d pieces, %d controls, confirmed %d; %d moves were a piece then its target", c.board, c.controls, c.confirms, c.paths)
	if c.board == 0 || c.paths == 0 {
		t.Errorf("the person played %d clicks on the board, %d of them a ship then where it goes: want both", c.board, c.paths)
	}
	// The final board is drawn: the ships the final view holds.
	if n := eval[int](b, `document.querySelectorAll('#icetraders .ship').length`); n == 0 {
		t.Error("the final board draws no ship")
	}
	b.screenshot("seat-icetraders")
}

func seedFromEnv(d uint64) uint64 {
	var s uint64
	if _, err := fmt.Sscan(os.Getenv("SEED"), &s); err == nil {
		return s
	}
	return d
}

func TestBrowser_HumanPlaysPlanetToTheEnd(t *testing.T) {
	a := newArena(t, arenaOptions{})
	b := newBrowser(t)
	// Six turns instead of twelve: every rule still applies, the animals from turn 3 on.
	m := a.createWith("planet", 2, seedFromEnv(3), map[string]string{"turn_cap": "6"}, "you", "greedy")
	defer a.openSeat(b, "planet", "greedy", m, 0)()
	c := b.playByClicks(200)
	b.until(`document.querySelector('#board').dataset.ended === 'true'`)
	t.Logf("the person clicked %d tiles and faces, %d controls, confirmed %d", c.board, c.controls, c.confirms)
	// The server says who placed each tile: the person, every turn, none by the timeout
	// policy. (The click counts can miss a click that went through as the page redrew.)
	rep, err := a.client.GetReplay(context.Background(), &orreryv1.GetReplayRequest{MatchId: m.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	placed := 0
	for _, st := range rep.GetSteps() {
		if st.GetSeat() != 0 {
			continue
		}
		if st.GetTimedOut() != orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED {
			t.Errorf("the person's tile %s was placed by the timeout policy", st.GetNotation())
		}
		placed++
	}
	if placed < 6 || c.paths == 0 || c.confirms == 0 {
		t.Errorf("the person placed %d tiles (want one a turn, 6), %d of them seen as a tile then a face, %d confirmed", placed, c.paths, c.confirms)
	}
	b.screenshot("seat-planet")
}

func TestBrowser_HumanPlaysPanTropiaToTheEnd(t *testing.T) {
	a := newArena(t, arenaOptions{})
	b := newBrowser(t)
	// Twelve turns, not four hundred: setup, production, trades and building all happen.
	m := a.createWith("pantropia", 3, seedFromEnv(4), map[string]string{"turn_cap": "12"}, "you", "greedy", "greedy")
	defer a.openSeat(b, "pantropia", "greedy", m, 0)()
	c := b.playByClicks(600)
	b.until(`document.querySelector('#board').dataset.ended === 'true'`)
	t.Logf("the person clicked %d points of the sphere, %d controls, built %d offers", c.board, c.controls, c.offers)
	if c.paths < 2 {
		t.Errorf("the person settled %d times by an intersection then a strut, want 2", c.paths)
	}
	if c.board < 4 {
		t.Errorf("the person clicked the sphere %d times, want more than the setup", c.board)
	}
	if c.offers == 0 {
		t.Error("the person never built a trade offer")
	}
	// The result names the winners as the panel does: "seat 1 (greedy) wins", never "p1".
	res := eval[string](b, `document.querySelector('#result').textContent`)
	if !regexp.MustCompile(`seat \d \((you|greedy)\) (wins|and)`).MatchString(res) || regexp.MustCompile(`\bp\d\b`).MatchString(res) {
		t.Errorf("the result says %q: want its winners named as the panel names them", res)
	}
	b.screenshot("seat-pantropia")
}

// within waits until the expression is truthy in the page, for at most d.
func (b *browser) within(d time.Duration, expr string) bool {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, d)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[any](expr, chromedp.WithPollingInterval(50*time.Millisecond)))
	return err == nil
}

// fieldJS is where on the page pile n's centre is, for a click on the field.
const fieldJS = `((n) => {
  const tags = [...document.querySelectorAll('#board .overlay .tag.pile')];
  const t = tags[n % tags.length], o = document.querySelector('#board .overlay').getBoundingClientRect();
  return [o.left + parseFloat(t.style.left), o.top + parseFloat(t.style.top)];
})`

func TestBrowser_HumanPlaysFCCatanToTheEnd(t *testing.T) {
	a := newArena(t, arenaOptions{})
	b := newBrowser(t)
	seed := seedFromEnv(2)
	// The published field and short rounds: setup, rounds on the wall clock, markets and the end.
	m, err := a.client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{
		Game: "fccatan", Seats: 3, Seed: &seed, SeatNames: []string{"you", "greedy", "greedy"},
		Options: map[string]string{"ruleset": "published", "round_cap": "2", "market_seconds": "3", "choice_seconds": "4", "team_size": "3", "trade_steps": "1"},
		Clock:   &orreryv1.Clock{PerMove: durationpb.New(time.Minute), TimeBank: durationpb.New(5 * time.Minute), WallClock: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer a.openSeat(b, "fccatan", "greedy", m, 0)()
	var handles, fieldClicks, keys, choices int
	// A wall-clock match moves on by itself: the page may offer the person nothing for a
	// while (others' choices, a market's clock). Stuck is the board not redrawn for 3 minutes.
	drawn, since := "", time.Now()
	for n := 1; n < 2000; n++ {
		if !b.within(20*time.Second, `document.querySelector('#result') || document.querySelector('#controls .selectavatar') || (document.querySelector('#controls')?.dataset.decision && (document.querySelector('#board .overlay .dot[data-key]') || document.querySelector('#controls > button')))`) {
			if d := eval[string](b, `document.querySelector('#board')?.dataset.draws || ''`); d != drawn {
				drawn, since = d, time.Now()
			} else if time.Since(since) > 3*time.Minute {
				t.Fatalf("the page offered the person nothing and did not redraw for 3 minutes: %s", eval[string](b, `(document.querySelector('#yourmove')?.innerText || '') + ' / ' + (document.querySelector('#controls')?.innerText || '')`))
			}
			continue
		}
		if eval[bool](b, `document.querySelector('#result') !== null`) {
			break
		}
		if eval[bool](b, `document.querySelector('#controls .selectavatar') !== null`) {
			// Live: a player, then the field where it runs, then an order by key.
			av := eval[int](b, `document.querySelectorAll('#board .overlay .handle').length`)
			if av == 0 {
				continue
			}
			ctx, cancel := context.WithTimeout(b.ctx, 3*time.Second)
			_, err := chromedp.Run(ctx, chromedp.Click(fmt.Sprintf(`#board .overlay .handle[data-key="avatar:%d"]`, n%av)))
			cancel()
			if err != nil {
				continue // the round ended under the click
			}
			handles++
			xy := eval[[]float64](b, fmt.Sprintf(`%s(%d)`, fieldJS, n))
			if _, err := chromedp.Run(b.ctx, chromedp.MouseClickXY(xy[0], xy[1])); err == nil {
				fieldClicks++
			}
			if eval[bool](b, fmt.Sprintf(`!document.querySelector('#controls .toggle.on[data-flag="pick_up"][data-avatar="%d"]')`, n%av)) {
				if _, err := chromedp.Run(b.ctx, chromedp.KeyEvent("p")); err == nil {
					keys++
				}
			}
			continue
		}
		// Between rounds: the hoop or control a person would choose.
		what := eval[string](b, fmt.Sprintf(`%s(%d, true)`, pickJS, n))
		if what == "" {
			continue
		}
		ctx, cancel := context.WithTimeout(b.ctx, 3*time.Second)
		if _, err := chromedp.Run(ctx, chromedp.Click(fmt.Sprintf(`[data-pick="%d"]`, n))); err == nil {
			choices++
		}
		cancel()
	}
	b.until(`document.querySelector('#board').dataset.ended === 'true'`)
	sent := eval[int](b, `Number(document.querySelector('#board').dataset.intentsSent || 0)`)
	log := eval[string](b, `document.querySelector('#log').textContent`)
	t.Logf("the person selected players %d times, clicked the field %d times, pressed %d keys, made %d other choices; %d intents sent", handles, fieldClicks, keys, choices, sent)
	if handles == 0 || fieldClicks == 0 || keys == 0 {
		t.Errorf("the person played no round live (%d players selected, %d field clicks, %d keys)", handles, fieldClicks, keys)
	}
	if sent == 0 {
		t.Error("the page sent no intents")
	}
	if !regexp.MustCompile(`seat 0 \(you\)'s player \d picked up`).MatchString(log) {
		t.Errorf("no player of the person's picked up a ball: %.600s", log)
	}
	b.screenshot("seat-fccatan")
}

// openNewMatchForm opens the home page at url and chooses game and seats in its New match
// form, as a person does, until the form lists a row for each seat.
func (b *browser) openNewMatchForm(url, game string, seats int) {
	b.t.Helper()
	b.do(chromedp.Navigate(url + "/#/"))
	b.until(`document.querySelector('#newgame') !== null`)
	b.do(chromedp.SetValue(`#newgame`, game))
	eval[bool](b, `document.querySelector('#newgame').dispatchEvent(new Event('change'))`)
	b.do(chromedp.SetValue(`#newseats`, fmt.Sprint(seats)))
	eval[bool](b, `document.querySelector('#newseats').dispatchEvent(new Event('change'))`)
	b.until(fmt.Sprintf(`document.querySelectorAll('#seatrows select.seatwho').length === %d`, seats))
}

// A person makes a match on the home page against the server's bots, and plays it out.
func TestBrowser_NewMatchFormSeatsBotsAndThePerson(t *testing.T) {
	a := newArena(t, arenaOptions{authorize: service.AdminKey("s3cret")})
	b := newBrowser(t)
	b.openNewMatchForm(a.web.url, "icetraders", 3)
	// Seat 0 is the person's, seats 1 and 2 bots: greedy, then random.
	b.do(chromedp.SetValue(`#seatrows select[data-seat="2"]`, "random"))
	eval[bool](b, `document.querySelector('#seatrows select[data-seat="2"]').dispatchEvent(new Event('change'))`)
	if got := eval[string](b, `[...document.querySelectorAll('#seatrows select.seatwho')].map((s) => s.value).join(',')`); got != "you,greedy,random" {
		t.Fatalf("the seats are %q", got)
	}
	// This server wants its admin key: the page says so and takes it for this tab only.
	b.expectConsole("status of 401 (Unauthorized)")
	b.do(chromedp.Click(`#create`))
	b.until(`document.querySelector('#adminkey') !== null`)
	b.do(chromedp.SetValue(`#adminkey`, "s3cret"), chromedp.Click(`#savekey`))
	// One seat is the person's: the page opens it.
	b.until(`location.hash.startsWith('#/seat/')`)
	if got := eval[string](b, `localStorage.getItem('orrery-admin-key') || ''`); got != "" {
		t.Error("the admin key was kept beyond the tab")
	}
	c := b.playByClicks(600)
	if c.board == 0 {
		t.Error("the person played no move on the board")
	}
	b.until(`document.querySelector('#board').dataset.ended === 'true'`)
	ms, err := a.client.ListMatches(context.Background(), &orreryv1.ListMatchesRequest{})
	if err != nil || len(ms.GetMatches()) != 1 {
		t.Fatalf("%d matches: %v", len(ms.GetMatches()), err)
	}
	var names []string
	for _, si := range ms.GetMatches()[0].GetSeatInfo() {
		names = append(names, si.GetName())
	}
	if strings.Join(names, ",") != "you,greedy,random" {
		t.Errorf("the match's seats are %q", names)
	}
}
