package hosted

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

const probe = "service/hosted/testdata/probe"

// probeDecision is a decision the probe reads as an order: its match id says what to do.
func probeDecision(mode string) *orreryv1.Decision {
	return &orreryv1.Decision{DecisionId: "d-1", MatchId: mode, Ply: 7, LegalCount: 3, LegalNotation: []string{"a", "b", "c"}, Text: "the board"}
}

// verdictOf is the verdict err carries, failing the test if it carries none.
func verdictOf(t *testing.T, err error) *Verdict {
	t.Helper()
	var v *Verdict
	if !errors.As(err, &v) {
		t.Fatalf("got %v, want a verdict", err)
	}
	return v
}

func TestHosted_Verdicts(t *testing.T) {
	m := module(t, probe)
	for _, tc := range []struct {
		mode   string
		limit  time.Duration
		kind   Kind
		detail string // in the verdict's detail
		stderr string // in the bot's stderr, besides the host's line
	}{
		{"loop", 200 * time.Millisecond, TimeLimit, "no answer within 200ms", ""},
		{"sleep", 200 * time.Millisecond, TimeLimit, "no answer within 200ms", ""},
		{"alloc", 10 * time.Second, MemoryLimit, "over the cap of 64 MiB", "out of memory"},
		{"garbage", 10 * time.Second, BadAnswer, `answer "hello, host" is not a JSON object`, ""},
		{"long", 10 * time.Second, OutputLimit, "longer than the limit of 65536 bytes", ""},
		{"exit", 10 * time.Second, RuntimeError, "exited with code 3", "probe: exiting with 3"},
		{"panic", 10 * time.Second, RuntimeError, "exited with code 2", "panic: probe: boom"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			b := start(t, m, 1)
			_, err := b.Decide(probeDecision(tc.mode), tc.limit)
			v := verdictOf(t, err)
			if v.Kind != tc.kind || !strings.Contains(v.Detail, tc.detail) {
				t.Errorf("verdict %v, want %s with %q", v, tc.kind, tc.detail)
			}
			if v.DecisionID != "d-1" || v.Ply != 7 {
				t.Errorf("verdict at %q ply %d, want d-1 ply 7", v.DecisionID, v.Ply)
			}
			if b.Verdict() != v {
				t.Errorf("Verdict() = %v, want the one Decide returned", b.Verdict())
			}
			// The owner reads why in the stderr kept for them: the host's line, after the bot's.
			se := b.Stderr()
			if want := "orrery: " + v.String(); !strings.Contains(se, want) {
				t.Errorf("stderr lacks the host's line %q:\n%s", want, se)
			}
			if tc.stderr != "" && !strings.Contains(se, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, se)
			}
			// The instance is gone: the next decision is refused without reaching it.
			if _, err := b.Decide(probeDecision("echo"), time.Second); !errors.Is(err, ErrGone) {
				t.Errorf("after the verdict Decide = %v, want ErrGone", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := b.Close(ctx); err != nil {
				t.Errorf("close after the verdict: %v", err)
			}
		})
	}
}

func TestHosted_LineNoDecisionAskedForIsBadAnswer(t *testing.T) {
	b := start(t, module(t, probe), 1)
	if _, err := b.Decide(probeDecision("twice"), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	v := verdictOf(t, second(b.Decide(probeDecision("echo"), 10*time.Second)))
	if v.Kind != BadAnswer || !strings.Contains(v.Detail, "no decision asked for") {
		t.Errorf("verdict %v, want BAD_ANSWER for the extra line", v)
	}
}

func second[T any](_ T, err error) error { return err }

func TestHosted_SandboxHasNoFilesSocketsOrOtherEntropy(t *testing.T) {
	m := module(t, probe)
	report := func(seed uint64) map[string]string {
		b := start(t, m, seed)
		mv, err := b.Decide(probeDecision("sandbox"), 10*time.Second)
		if err != nil {
			t.Fatalf("%v\n%s", err, b.Stderr())
		}
		var r map[string]string
		if err := json.Unmarshal([]byte(mv.Debug), &r); err != nil {
			t.Fatalf("probe's report %q: %v", mv.Debug, err)
		}
		return r
	}
	r := report(42)
	for _, way := range []string{"file", "dir", "urandom", "create", "dial", "accept"} {
		if !strings.HasPrefix(r[way], "refused") {
			t.Errorf("%s: %q, want refused", way, r[way])
		}
	}
	if r["env"] != "" || r["args"] != "bot" {
		t.Errorf("environment %q and arguments %q, want none and \"bot\"", r["env"], r["args"])
	}
	if r["year"] != "1970" {
		t.Errorf("the module's clock says the year %s; it should tell no time of day (1970 from its seat's start)", r["year"])
	}
	// Its only entropy is the host's seeded source: the same seed gives the same bytes.
	if again := report(42)["entropy"]; again != r["entropy"] {
		t.Errorf("seed 42 gave entropy %s, then %s: not the seeded source", r["entropy"], again)
	}
	if other := report(43)["entropy"]; other == r["entropy"] {
		t.Errorf("seeds 42 and 43 gave the same entropy %s", other)
	}
}

func TestHosted_ReceiveLineAndDecisionLine(t *testing.T) {
	b := start(t, module(t, probe), 1)
	if r := b.Receive(); !r.GetOmitText() || r.GetOmitEvents() {
		t.Errorf("Receive() = %v, want the probe's omit_text", r)
	}
	d := probeDecision("echo")
	mv, err := b.Decide(d, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// What reached the module is the decision's line, byte for byte.
	line, err := decisionLine(nil, d, 0, EncodingJSON, false)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(line)
	if mv.Debug != hex.EncodeToString(sum[:]) {
		t.Errorf("the module read a line hashing to %s, want %s (%s)", mv.Debug, hex.EncodeToString(sum[:]), line)
	}
	if mv.Answer.GetLegalIndex() != 0 || mv.Answer.GetDecisionId() != "d-1" || mv.Answer.GetMatchId() != "echo" {
		t.Errorf("answer %v, want index 0 of d-1", mv.Answer)
	}
	if mv.CPU <= 0 || mv.Wall <= 0 {
		t.Errorf("CPU %v and wall %v, want both measured", mv.CPU, mv.Wall)
	}
	mv, err = b.Decide(probeDecision("text"), 10*time.Second)
	if err != nil || mv.Debug != `text="the board"` {
		t.Errorf("text mode: %q, %v", mv.Debug, err)
	}
}

func TestHosted_AnswerForms(t *testing.T) {
	d := &orreryv1.Decision{DecisionId: "d-9", MatchId: "m", LegalCount: 2}
	for _, tc := range []struct {
		line, want, debug, err string
	}{
		{line: `{"legal_index": 1}`, want: `legal_index:1`},
		{line: `{"legal_index": 0, "debug": "only move"}`, want: `legal_index:0`, debug: "only move"},
		{line: `{"notation": "pass"}`, want: `notation:"pass"`},
		{line: `{"action": {"icetraders": {}}}`, want: `action:{icetraders:{}}`},
		{line: `hello`, err: "is not a JSON object"},
		{line: `{"legal_index": 2}`, err: "out of range: the decision has 2 legal actions"},
		{line: `{"legal_index": -1}`, err: "out of range"},
		{line: `{"legal_index": 1.5}`, err: "must be an integer"},
		{line: `{"legal_index": 0, "notation": "pass"}`, err: "exactly one of"},
		{line: `{"debug": "thinking"}`, err: "exactly one of"},
		{line: `{"legal_index": 0, "index": 0}`, err: `the field "index"`},
		{line: `{"legal_index": 0} {"legal_index": 1}`, err: "more than one JSON value"},
		{line: `{"notation": ""}`, err: "non-empty string"},
		{line: `{"action": {"chess": {}}}`, err: "action"},
		{line: `{"legal_index": 0, "debug": 3}`, err: "debug must be a string"},
	} {
		a, note, err := parseAnswer([]byte(tc.line), d)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one with %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		got := strings.ReplaceAll(a.String(), "  ", " ")
		if !strings.Contains(got, tc.want) || a.GetDecisionId() != "d-9" || a.GetMatchId() != "m" || note != tc.debug {
			t.Errorf("%s: answer %v note %q, want %s note %q", tc.line, a, note, tc.want, tc.debug)
		}
	}
}

func TestHosted_FirstLine(t *testing.T) {
	if r, enc, err := firstLine([]byte(`{"receive": {"omit_legal": true, "omit_events": true}}`)); err != nil || !r.GetOmitLegal() || !r.GetOmitEvents() || enc != EncodingJSON {
		t.Errorf("receive line: %v, %v, %v", r, enc, err)
	}
	if r, enc, err := firstLine([]byte(`{"encoding": "protobuf"}`)); err != nil || !r.GetOmitEvents() || enc != EncodingProtobuf {
		t.Errorf("encoding line: %v, %v, %v; want the default receive and protobuf", r, enc, err)
	}
	for _, bad := range []string{`{"legal_index": 0}`, `hello`, `{}`, `{"receive": {"omit_everything": true}}`, `{"receive": {}, "x": 1}`, `{"encoding": "xml"}`} {
		if _, _, err := firstLine([]byte(bad)); err == nil {
			t.Errorf("%s: accepted as a first line", bad)
		}
	}
}

func TestHosted_InvalidModules(t *testing.T) {
	rt := testRuntime(t)
	ctx := context.Background()
	// A module that imports env.f: (module (import "env" "f" (func)) (memory (export "memory") 1)
	// (func (export "_start")))
	foreign := []byte{0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 4, 1, 0x60, 0, 0, // type: () -> ()
		2, 9, 1, 3, 'e', 'n', 'v', 1, 'f', 0, 0, // import env.f
		3, 2, 1, 0, // func 1: type 0
		5, 3, 1, 0, 1, // memory min 1
		7, 19, 2, 6, 'm', 'e', 'm', 'o', 'r', 'y', 2, 0, 6, '_', 's', 't', 'a', 'r', 't', 0, 1, // exports
		10, 4, 1, 2, 0, 0x0b, // code
	}
	// The same without the import: a module with no _start is not a command.
	noStart := []byte{0, 'a', 's', 'm', 1, 0, 0, 0, 5, 3, 1, 0, 1, 7, 10, 1, 6, 'm', 'e', 'm', 'o', 'r', 'y', 2, 0}
	// Memory of 2000 pages from the start, over the tests' cap of 1024.
	huge := []byte{0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 4, 1, 0x60, 0, 0,
		3, 2, 1, 0,
		5, 4, 1, 0, 0xd0, 0x0f, // memory min 2000
		7, 19, 2, 6, 'm', 'e', 'm', 'o', 'r', 'y', 2, 0, 6, '_', 's', 't', 'a', 'r', 't', 0, 0,
		10, 4, 1, 2, 0, 0x0b,
	}
	for _, tc := range []struct {
		name string
		wasm []byte
		err  string
	}{
		{"not wasm", []byte("#!/bin/sh\necho hi\n"), "invalid module"},
		{"foreign import", foreign, "imports [env.f]"},
		{"no _start", noStart, "exports no _start"},
		{"memory over the cap", huge, "2000 pages of memory, over the cap of 1024"},
		{"too big", make([]byte, rt.Limits().ModuleBytes+1), "over the limit"},
	} {
		_, err := rt.Compile(ctx, tc.wasm)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want ErrInvalid with %q", tc.name, err, tc.err)
		}
	}
}

func TestHosted_CompiledOncePerContent(t *testing.T) {
	rt := testRuntime(t)
	wasm := goWasm(t, probe)
	a, err := rt.Compile(context.Background(), wasm)
	if err != nil {
		t.Fatal(err)
	}
	b, err := rt.Compile(context.Background(), append([]byte(nil), wasm...))
	if err != nil {
		t.Fatal(err)
	}
	if a != b || a.Digest != Digest(wasm) {
		t.Errorf("the same bytes compiled twice (%p, %p) or under another digest", a, b)
	}
}
