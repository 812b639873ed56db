package gateway

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"google.golang.org/protobuf/proto"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

var (
	updateScreenshots = flag.Bool("update-screenshots", false, "write each game's screenshot to docs/img")
	screenshotDir     = flag.String("screenshot-dir", "", "also keep every screenshot in this folder")
)

// browser is a headless chromium with a tab, recording every console error and uncaught
// exception of its pages.
type browser struct {
	t   *testing.T
	ctx context.Context

	mu     sync.Mutex // guards errors and expected
	errors []string
	// expected are console errors a test causes on purpose (a refused request's log line).
	expected []string
}

// expectConsole lets console errors holding text pass: the browser logs every refused
// request, and a test of a refusal causes one.
func (b *browser) expectConsole(text string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.expected = append(b.expected, text)
}

// chromium finds the browser; CI installs Debian's package.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	if testing.Short() {
		// CI runs them in its full pass; its -race -short pass keeps to the server's own tests.
		t.Skip("the browser tests run without -short")
	}
	path := chromium()
	if path == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed; .ci/run installs Debian's chromium")
		}
		t.Skip("chromium is not installed (apt-get install chromium): skipping the browser tests")
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// WebGL without a GPU: the software rasterizer.
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 860))
	ctx, cancel := chromedp.NewContext(alloc)
	// A whole test may take this long on a loaded machine; it bounds a hang, it measures nothing.
	ctx, cancelTimeout := context.WithTimeout(ctx, 4*time.Minute)
	b := &browser{t: t, ctx: ctx}
	if err := chromedp.Do(ctx); err != nil { // start the browser
		t.Fatal(err)
	}
	// Every console error, uncaught exception and browser log error (a refused resource, a
	// blocked request) counts.
	messages := chromedp.Console(ctx)
	consoleDone := make(chan struct{})
	go func() {
		defer close(consoleDone)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.mu.Lock()
				b.errors = append(b.errors, m.String())
				b.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
		<-consoleDone
		b.mu.Lock()
		defer b.mu.Unlock()
	next:
		for _, e := range b.errors {
			for _, x := range b.expected {
				if strings.Contains(e, x) {
					continue next
				}
			}
			t.Errorf("JavaScript error on the console: %s", e)
		}
	})
	return b
}

func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// until waits until the expression is truthy in the page.
func (b *browser) until(expr string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[any](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
		b.t.Fatalf("waiting for %s: %v", expr, err)
	}
}

// screenshot writes the viewport under the test's temp folder, and to docs/img with
// -update-screenshots.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	img, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(45))
	if err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(b.t.TempDir(), name+".jpg")
	if err := os.WriteFile(path, img, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", path)
	if *screenshotDir != "" {
		if err := os.WriteFile(filepath.Join(*screenshotDir, name+".jpg"), img, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
	if _, isGame := gameNames[name]; (isGame || strings.HasPrefix(name, "seat-")) && *updateScreenshots {
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "img", name+".jpg"), img, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
}

func TestBrowser_HomeListsLiveHouseMatches(t *testing.T) {
	// Planet's matches are short: the ladder rates some within seconds.
	a := newArena(t, arenaOptions{houseMatches: 2, houseGames: []string{"planet", "icetraders"}})
	b := newBrowser(t)
	b.do(chromedp.Navigate(a.web.url + "/#/"))
	b.until(`[...document.querySelectorAll('#live tr.match')].some(r => r.textContent.includes('house-'))`)
	b.screenshot("home")

	// Standings: the leaderboard, and the top bots' ratings over their rated matches.
	b.do(chromedp.Navigate(a.web.url + "/#/standings/planet"))
	b.until(`document.querySelectorAll('#standings tbody tr').length > 0`)
	b.until(`document.querySelectorAll('#ratingplot polyline.series').length > 0`)
	b.screenshot("standings")
}

var gameNames = map[string]bool{"icetraders": true, "planet": true, "pantropia": true, "fccatan": true}

// liveGames are the matches of the live-render test: seats, and what shows the board drew.
var liveGames = []struct {
	game  string
	seats int
	pace  time.Duration // each bot's pause before a decision, so the match outlasts the page's start
	drawn string        // a JavaScript expression, true once the board shows the game's pieces
}{
	{"icetraders", 3, 60 * time.Millisecond, `document.querySelectorAll('#icetraders .system').length > 0 && document.querySelectorAll('#icetraders .ship').length > 0`},
	{"planet", 3, 300 * time.Millisecond, `document.querySelector('#board canvas') !== null && document.querySelectorAll('#boardinfo .planet').length === 3`},
	{"pantropia", 3, 60 * time.Millisecond, `document.querySelector('#board canvas') !== null && document.querySelectorAll('#boardinfo .player').length === 3`},
	{"fccatan", 3, 60 * time.Millisecond, `Number(document.querySelector('#field')?.dataset.avatars || 0) > 0`},
}

func TestBrowser_LiveMatchOfEachGameRendersAndUpdates(t *testing.T) {
	a := newArena(t, arenaOptions{})
	b := newBrowser(t)
	for _, g := range liveGames {
		t.Run(g.game, func(t *testing.T) {
			b.t = t
			m := a.create(g.game, g.seats, 21)
			// The bots wait until the page shows the start, so a fast match cannot end unseen.
			gate := newGate(false)
			ctx, cancel := context.WithCancel(context.Background())
			wait := a.playSeats(ctx, g.game, m.GetSeats(), g.pace, gate, nil)
			defer func() { cancel(); gate.release(); wait() }()
			b.do(chromedp.Navigate(a.web.url + "/#/match/" + m.GetMatchId()))
			b.until(`document.querySelector('#board')?.dataset.ply !== undefined`)
			first := eval[string](b, `document.querySelector('#board').dataset.ply`)
			gate.release()
			b.until(fmt.Sprintf(`Number(document.querySelector('#board').dataset.ply) > %s`, first))
			b.until(g.drawn)
			b.screenshot(g.game)
		})
	}
}

func TestBrowser_ReplayStepsToAPlyAndBack(t *testing.T) {
	a := newArena(t, arenaOptions{})
	m := a.create("icetraders", 3, 8)
	a.playSeats(context.Background(), "icetraders", m.GetSeats(), 0, nil, nil)()
	views := orreryv1.NewViewServiceClient(a.conn)
	shipsAt := func(ply int64, seat int32) int {
		req := &orreryv1.GetViewRequest{MatchId: m.GetMatchId(), Ply: ply}
		if seat >= 0 {
			req.Viewer, req.Seat = orreryv1.Viewer_VIEWER_SEAT, seat
		}
		v, err := views.GetView(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		o := v.GetObservation().GetIcetraders()
		for _, s := range o.GetSystems() {
			n += len(s.GetShips())
		}
		for _, h := range o.GetHyperspaces() {
			n += len(h.GetShips())
		}
		return n
	}
	b := newBrowser(t)
	b.do(chromedp.Navigate(a.web.url + "/#/match/" + m.GetMatchId()))
	b.until(`document.querySelector('#steps') && document.querySelector('#board').dataset.ply !== undefined`)
	plies := eval[int](b, `Number(document.querySelector('#scrub').max)`)
	if plies < 12 {
		t.Fatalf("a replay of %d plies is too short for this test", plies)
	}
	board := func(ply int) {
		t.Helper()
		b.until(fmt.Sprintf(`document.querySelector('#board').dataset.ply === '%d'`, ply))
		if got, want := eval[int](b, `document.querySelectorAll('#icetraders .ship').length`), shipsAt(int64(ply), -1); got != want {
			t.Errorf("ply %d: the board draws %d ships, the view has %d", ply, got, want)
		}
	}
	board(plies)
	target := plies / 2
	b.do(chromedp.SetValue(`#jump`, strconv.Itoa(target)), chromedp.Click(`#jumpgo`))
	board(target)
	b.do(chromedp.Click(`#forward`))
	board(target + 1)
	b.do(chromedp.Click(`#back`), chromedp.Click(`#back`))
	board(target - 1)
	b.do(chromedp.Click(`#first`))
	board(0)
	// As seat 1 saw it: its own alignment only.
	b.do(chromedp.SetValue(`#jump`, strconv.Itoa(target)), chromedp.Click(`#jumpgo`))
	board(target)
	b.do(chromedp.SetValue(`#viewer`, "VIEWER_SEAT:1"))
	eval[bool](b, `document.querySelector('#viewer').dispatchEvent(new Event('change'))`)
	b.until(`document.querySelector('#board').dataset.viewer === 'VIEWER_SEAT:1'`)
	if got := eval[int](b, `document.querySelectorAll('#boardinfo .alignment').length`); got != 1 {
		t.Errorf("as seat 1 at ply %d the page shows %d alignments, want its own only", target, got)
	}
	if got, want := eval[int](b, `document.querySelectorAll('#icetraders .ship').length`), shipsAt(int64(target), 1); got != want {
		t.Errorf("as seat 1: %d ships drawn, the view has %d", got, want)
	}
	b.do(chromedp.Click(`#playpause`))
	b.until(fmt.Sprintf(`Number(document.querySelector('#board').dataset.ply) > %d`, target))
	b.do(chromedp.Click(`#playpause`))
	b.screenshot("replay")
}

// secretsOf walks a JSON value for what a spectator of a running match must never see: any
// seat's alignment (IceTraders) or objective (Planet).
func secretsOf(v any, path string, found *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			p := path + "." + k
			switch k {
			case "alignment", "alignments":
				if s := fmt.Sprint(c); strings.Contains(s, "ALIGNMENT_GOOD") || strings.Contains(s, "ALIGNMENT_EVIL") {
					*found = append(*found, p+"="+s)
				}
			case "objective":
				if o, ok := c.(map[string]any); ok && o["habitat"] != nil && o["habitat"] != "HABITAT_UNSPECIFIED" {
					*found = append(*found, p+"="+fmt.Sprint(o["habitat"]))
				}
			case "objective_dealt":
				if o, ok := c.(map[string]any); ok && o["habitat"] != nil && o["habitat"] != "HABITAT_UNSPECIFIED" {
					*found = append(*found, p+"="+fmt.Sprint(o["habitat"]))
				}
			}
			secretsOf(c, p, found)
		}
	case []any:
		for i, c := range x {
			secretsOf(c, fmt.Sprintf("%s[%d]", path, i), found)
		}
	}
}

func TestBrowser_SpectatorSeesNoSecrets(t *testing.T) {
	cases := []struct {
		game  string
		seats int
		// choose makes the secret known to the test; known is what it chose.
		secret func(d *orreryv1.Decision, known *sync.Map) *orreryv1.Answer
		domBad []string // text the spectator's page must not contain while the match runs
	}{
		{"icetraders", 3, func(d *orreryv1.Decision, known *sync.Map) *orreryv1.Answer {
			for i, n := range d.GetLegalNotation() {
				if n == "align evil" {
					known.Store(d.GetSeat(), "evil")
					return &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: int32(i)}}
				}
			}
			return nil
		}, []string{"evil", "good"}},
		{"planet", 2, func(d *orreryv1.Decision, known *sync.Map) *orreryv1.Answer {
			o := d.GetObservation().GetPlanet()
			for _, p := range o.GetPlanets() {
				if p.GetSeat() == d.GetSeat() && p.GetObjective().GetHabitat() != 0 {
					known.Store(d.GetSeat(), strings.ToLower(strings.TrimPrefix(p.GetObjective().GetHabitat().String(), "HABITAT_")))
				}
			}
			return nil
		}, []string{"· objective"}}, // how the board shows a known objective; the log may say one was dealt
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			a := newArena(t, arenaOptions{})
			m := a.create(c.game, c.seats, 33)
			var known sync.Map
			var decisions atomic.Int32
			g := newGate(true)
			ctx, cancel := context.WithCancel(context.Background())
			wait := a.playSeats(ctx, c.game, m.GetSeats(), 20*time.Millisecond, g, func(d *orreryv1.Decision) *orreryv1.Answer {
				// Past the secret choices, hold the match still so it cannot end under the test.
				if decisions.Add(1) == int32(4*c.seats+4) {
					g.shut()
				}
				return c.secret(d, &known)
			})
			defer func() { cancel(); g.release(); wait() }()

			b := newBrowser(t)
			b.do(chromedp.Navigate(a.web.url + "/#/match/" + m.GetMatchId()))
			b.until(fmt.Sprintf(`Number(document.querySelector('#board')?.dataset.ply ?? -1) >= %d`, 2*c.seats+2))
			var secrets int
			known.Range(func(_, _ any) bool { secrets++; return true })
			if secrets != c.seats {
				t.Fatalf("the test knows %d seats' secrets, want %d", secrets, c.seats)
			}
			sum, err := a.client.GetMatch(context.Background(), &orreryv1.GetMatchRequest{MatchId: m.GetMatchId()})
			if err != nil || sum.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
				t.Fatalf("the match must still run: %v %v", sum.GetMatch().GetStatus(), err)
			}
			dom, received := scanSecrets(t, b, a, c.domBad)
			for _, f := range append(dom, received...) {
				t.Errorf("the spectator's page of a running match: %s", f)
			}
			b.screenshot("spectator-" + c.game)

			// After the end Watch shows everything: the same scan now finds the secrets, so it
			// would have found them before.
			g.release()
			b.until(`document.querySelector('#board').dataset.ended === 'true'`)
			if dom, received := scanSecrets(t, b, a, c.domBad); len(received) == 0 || len(dom) == 0 {
				t.Errorf("after the end the scan finds %d secrets in the page and %d in what it received: it cannot be trusted to find a leak", len(dom), len(received))
			}
		})
	}
}

// scanSecrets lists the page's text that is in bad, and every secret in the JSON the web
// server sent for matches.
func scanSecrets(t *testing.T, b *browser, a *arena, bad []string) (dom, received []string) {
	t.Helper()
	html := strings.ToLower(eval[string](b, `document.documentElement.outerHTML`))
	for _, word := range bad {
		if i := strings.Index(html, word); i >= 0 {
			dom = append(dom, fmt.Sprintf("the DOM contains %q: …%s…", word, html[max(0, i-80):min(len(html), i+40)]))
		}
	}
	for path, body := range a.received() {
		if path == "/v1/games" || !strings.HasPrefix(path, "/v1/") {
			continue // the catalog and the app's files hold no match
		}
		for _, line := range strings.Split(body, "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			var v any
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("%s sent a line that is not JSON: %.80s", path, line)
			}
			var found []string
			secretsOf(v, path, &found)
			for _, f := range found {
				received = append(received, "received "+f)
			}
		}
	}
	return dom, received
}

func TestBrowser_HomeListsTournamentsAndTheirStandings(t *testing.T) {
	a := newArena(t, arenaOptions{})
	created, err := orreryv1.NewTournamentServiceClient(a.conn).CreateTournament(context.Background(), &orreryv1.CreateTournamentRequest{
		Game: "planet", Entrants: []string{"greedy", "random"}, Games: 4, Parallel: 2, Seed: proto.Uint64(7)})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetTournamentId()
	b := newBrowser(t)
	b.do(chromedp.Navigate(a.web.url + "/#/"))
	b.until(fmt.Sprintf(`[...document.querySelectorAll('#tournaments tr.tournament')].some(r => r.dataset.tournament === %q && r.textContent.includes('greedy, random'))`, id))

	// Its page: the progress, then both entrants' standings once every match has ended.
	b.do(chromedp.Navigate(a.web.url + "/#/tournament/" + id))
	b.until(`(document.querySelector('#progress')?.textContent || '').startsWith('4 of 4 matches, finished')`)
	b.until(`document.querySelectorAll('#tournament tbody tr').length === 2`)
	if n := eval[int](b, `document.querySelectorAll('#tournament a.card').length`); n != 4 {
		t.Errorf("%d match links, want 4", n)
	}
	b.screenshot("tournament")
}
