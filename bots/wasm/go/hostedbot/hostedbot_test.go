package hostedbot

import (
	"bytes"
	"encoding/base64"
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
		`{"debug":"the last one","legal_index":2}`,
		`{"debug":"the last one","legal_index":0}`,
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

func TestServe_RefusesALineThatIsNoDecision(t *testing.T) {
	err := Serve(strings.NewReader("{\"decision_id\": \"d\"}\n"), &bytes.Buffer{}, bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer { return bots.Index(d, 0) }))
	if err == nil || !strings.Contains(err.Error(), "read a decision") {
		t.Errorf("Serve = %v, want an error reading the decision", err)
	}
}
