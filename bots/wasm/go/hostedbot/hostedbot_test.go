package hostedbot

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/bots"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

type lastBot struct{}

func (lastBot) Act(d *orreryv1.Decision) *orreryv1.Answer { return bots.Index(d, bots.Count(d)-1) }
func (lastBot) Receive() *orreryv1.Receive                { return &orreryv1.Receive{OmitText: true} }
func (lastBot) Note() string                              { return "the last one" }

func TestServe_SpeaksTheLineProtocol(t *testing.T) {
	var in bytes.Buffer
	for _, n := range []int32{3, 1} {
		bin, err := proto.Marshal(&orreryv1.Decision{DecisionId: "d", LegalCount: n})
		if err != nil {
			t.Fatal(err)
		}
		in.WriteString(base64.StdEncoding.EncodeToString(bin) + "\n")
	}
	var out bytes.Buffer
	if err := Serve(&in, &out, lastBot{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{
		`{"encoding":"protobuf","receive":{"omit_text":true}}`,
		`{"legal_index":2,"debug":"the last one"}`,
		`{"legal_index":0,"debug":"the last one"}`,
	}
	if len(lines) != len(want) {
		t.Fatalf("printed %q, want %q", lines, want)
	}
	for i := range want {
		if strings.ReplaceAll(lines[i], " ", "") != strings.ReplaceAll(want[i], " ", "") { // protojson may space its output
			t.Errorf("line %d: %s, want %s", i, lines[i], want[i])
		}
	}
}

// A note is written as a JSON string whatever it holds: quotes, backslashes, control
// characters, any script, and bytes that are not UTF-8.
func TestAppendAnswer_WritesAnyNoteAsJSON(t *testing.T) {
	for _, note := range []string{`plain`, `say "hi" \ back`, "tab\there\nnewline", "élan ☃ 🚀", "bad \xff byte", "del \x7f"} {
		line, err := appendAnswer(nil, noted{note}, &orreryv1.Decision{LegalCount: 2})
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			LegalIndex *int   `json:"legal_index"`
			Debug      string `json:"debug"`
		}
		if err := json.Unmarshal(line, &got); err != nil || got.LegalIndex == nil || *got.LegalIndex != 1 {
			t.Errorf("note %q: line %s is not the answer (%v)", note, line, err)
			continue
		}
		if want := strings.ToValidUTF8(note, "\uFFFD"); got.Debug != want {
			t.Errorf("note %q came back as %q", note, got.Debug)
		}
	}
}

type noted struct{ note string }

func (noted) Act(d *orreryv1.Decision) *orreryv1.Answer { return bots.Index(d, 1) }
func (n noted) Note() string                            { return n.note }

func TestServe_RefusesALineThatIsNoDecision(t *testing.T) {
	err := Serve(strings.NewReader("{\"decision_id\": \"d\"}\n"), &bytes.Buffer{}, bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer { return bots.Index(d, 0) }))
	if err == nil || !strings.Contains(err.Error(), "read a decision") {
		t.Errorf("Serve = %v, want an error reading the decision", err)
	}
}
