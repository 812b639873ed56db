package gateway

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	botladder "github.com/orrery/orrery/bots/ladder"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// chattySource is a hosted bot that says on stderr what it decides: the first two decisions
// it answers, then it prints garbage, which earns it BAD_ANSWER.
const chattySource = `#include <stdio.h>
int main(void) {
	static char line[1 << 20];
	int n = 0;
	puts("{\"receive\": {\"omit_legal\": true, \"omit_legal_notation\": true, \"omit_text\": true, \"omit_observation\": true, \"omit_events\": true}}");
	fflush(stdout);
	while (fgets(line, sizeof line, stdin)) {
		fprintf(stderr, "chatty VERSION: decision %d\n", ++n);
		puts(n < 3 ? "{\"legal_index\": 0}" : "no idea");
		fflush(stdout);
	}
	return 0;
}
`

// clangModule builds C source into a WASI module. Without clang the test is skipped on a
// developer's machine and fails under CI, which installs it (.ci/run).
func clangModule(t *testing.T, source string) []byte {
	t.Helper()
	if _, err := exec.LookPath("clang"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("clang is not installed: .ci/run installs clang lld wasi-libc libclang-rt-14-dev-wasm32")
		}
		t.Skip("clang is not installed: apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32")
	}
	dir := t.TempDir()
	src, out := filepath.Join(dir, "bot.c"), filepath.Join(dir, "bot.wasm")
	if err := os.WriteFile(src, []byte(source), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("clang", "--target=wasm32-wasi", "-O2", "-o", out, src).CombinedOutput(); err != nil {
		t.Fatalf("clang: %v\n%s", err, b)
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return wasm
}

// TestHosted_BotPageShowsVersionsVerdictsAndStderr: a person opens a hosted bot's page and
// sees its two module versions, the verdict count its seats earned, and its newest seats; its
// stderr only once they give the bot's own key (or the admin key), never with another bot's
// key, and nothing of it reaches a page without one.
func TestHosted_BotPageShowsVersionsVerdictsAndStderr(t *testing.T) {
	const admin = "admin-secret"
	a := newArena(t, arenaOptions{houseMatches: 1, houseGames: []string{"icetraders"}, hosted: true, adminKey: admin})
	ctx := context.Background()
	lad := orreryv1.NewLadderServiceClient(a.conn)
	keys := map[string]string{}
	for _, name := range []string{"chatty", "other"} {
		r, err := lad.RegisterBot(botladder.Key(ctx, admin), &orreryv1.RegisterBotRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		keys[name] = r.GetApiKey()
	}
	for _, v := range []string{"v1", "v2"} {
		wasm := clangModule(t, strings.ReplaceAll(chattySource, "VERSION", v))
		if _, err := lad.UploadBotModule(botladder.Key(ctx, keys["chatty"]), &orreryv1.UploadBotModuleRequest{Name: "chatty", Wasm: wasm, Games: []string{"icetraders"}}); err != nil {
			t.Fatal(err)
		}
	}
	// The ladder may seat v1 before v2 is uploaded: wait for a seat of v2 to be the newest.
	var info *orreryv1.GetBotResponse
	v2Newest := func() bool {
		seats := info.GetHostedSeats()
		return len(seats) > 0 && seats[0].GetVersion() == 2 && seats[0].GetVerdict() == "BAD_ANSWER"
	}
	for deadline := time.Now().Add(2 * time.Minute); info.GetVerdicts()["BAD_ANSWER"] == 0 || !v2Newest(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the hosted bot earned no verdict within 2 minutes: %v", info)
		}
		var err error
		if info, err = lad.GetBot(ctx, &orreryv1.GetBotRequest{Name: "chatty"}); err != nil {
			t.Fatal(err)
		}
	}

	b := newBrowser(t)
	b.do(chromedp.Navigate(a.web.url + "/#/bot/chatty"))
	b.until(`document.querySelectorAll('#versions tbody tr').length === 2 && document.querySelector('#verdicts tr[data-verdict=BAD_ANSWER]') !== null`)
	if got := eval[[]string](b, `[...document.querySelectorAll('#versions tbody tr')].map((r) => r.dataset.version)`); strings.Join(got, ",") != "2,1" {
		t.Errorf("the versions listed: %v, want 2 then 1", got)
	}
	// The page's count is the server's at the time it read it, no more than the count now.
	shown := eval[string](b, `document.querySelector('#verdicts tr[data-verdict=BAD_ANSWER] td:nth-child(2)').textContent`)
	now, err := lad.GetBot(ctx, &orreryv1.GetBotRequest{Name: "chatty"})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := strconv.Atoi(shown); err != nil || int32(n) < info.GetVerdicts()["BAD_ANSWER"] || int32(n) > now.GetVerdicts()["BAD_ANSWER"] {
		t.Errorf("BAD_ANSWER count shown %q; the server counted %d before the page read it, %d after", shown, info.GetVerdicts()["BAD_ANSWER"], now.GetVerdicts()["BAD_ANSWER"])
	}
	if got := eval[int](b, `document.querySelectorAll('#hostedseats tbody tr').length`); got == 0 {
		t.Error("no hosted seat listed")
	}
	if got := eval[string](b, `document.querySelector('#hostedseats tbody tr td:nth-child(4)').textContent`); got != "BAD_ANSWER" {
		t.Errorf("the newest seat's verdict shown: %q", got)
	}
	// No stderr without a key: not on the page, not in anything the server sent it.
	if got := eval[string](b, `document.body.textContent`); strings.Contains(got, "chatty v") {
		t.Error("the page shows stderr without a key")
	}
	for path, body := range a.received() {
		if strings.Contains(body, "chatty v") {
			t.Errorf("%s sent the stderr to a page without a key", path)
		}
	}

	// Another bot's key shows nothing, and says so.
	// (Nothing is refused: GetBot answers, without the stderr.)
	b.do(chromedp.SetValue(`#botkey`, keys["other"]), chromedp.Click(`#showstderr`))
	b.until(`document.querySelector('#nostderr') !== null`)
	if got := eval[string](b, `document.getElementById('stderr').textContent`); strings.Contains(got, "chatty v") {
		t.Errorf("another bot's key showed the stderr: %q", got)
	}
	// The bot's own key shows the last lines of its newest seat's stderr, with the host's
	// verdict line.
	b.do(chromedp.SetValue(`#botkey`, keys["chatty"]), chromedp.Click(`#showstderr`))
	b.until(`document.querySelector('#stderr pre.stderr') !== null`)
	text := eval[string](b, `document.querySelector('#stderr pre.stderr').textContent`)
	if !strings.Contains(text, "chatty v2: decision 3") || !strings.Contains(text, "orrery: BAD_ANSWER") || strings.Contains(text, "chatty v1") {
		t.Errorf("the stderr shown with the bot's key: %q", text)
	}
	b.screenshot("hosted-bot-page")
	// So does the admin key, in a fresh tab's session.
	eval[bool](b, `sessionStorage.clear(), true`)
	b.do(chromedp.Reload())
	b.until(`document.querySelector('#botkey') !== null`)
	if got := eval[int](b, `document.querySelectorAll('#stderr pre').length`); got != 0 {
		t.Error("the stderr is shown after the session was cleared")
	}
	b.do(chromedp.SetValue(`#botkey`, admin), chromedp.Click(`#showstderr`))
	b.until(`document.querySelector('#stderr pre.stderr') !== null`)
	if text := eval[string](b, `document.querySelector('#stderr pre.stderr').textContent`); !strings.Contains(text, "chatty v2") {
		t.Errorf("the stderr shown with the admin key: %q", text)
	}
}
