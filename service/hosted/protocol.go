package hosted

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/orrery/orrery/bots"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// The line protocol (docs/hosted.md). The host writes each decision as one line, the
// protojson form of the seat's Decision with the proto's own field names. The bot may first
// print one line, {"receive": {...}}, naming the parts it wants as orreryv1.Receive does on
// the wire; without it it gets DefaultReceive. It answers each decision with one line:
// {"legal_index": N}, {"action": <typed action>} or {"notation": "..."}, with an optional
// "debug": "..." note.
//
// The first line may also ask for "encoding": "protobuf": each decision line is then the
// standard base64 of the Decision's binary protobuf form, which a bot with a protobuf library
// decodes many times faster than the JSON (the Go kit does). Answers stay JSON.

// DefaultReceive is what a bot that prints no receive line gets: every part of a decision
// but its events, which a bot reading its observation needs least.
func DefaultReceive() *orreryv1.Receive { return &orreryv1.Receive{OmitEvents: true} }

var (
	lineOut = protojson.MarshalOptions{UseProtoNames: true}
	lineIn  = protojson.UnmarshalOptions{}
)

// Encoding is how decision lines are written.
type Encoding string

const (
	EncodingJSON     Encoding = "json"     // protojson, the proto's field names (the default)
	EncodingProtobuf Encoding = "protobuf" // base64 of the binary protobuf form
)

// decisionLine is d as the bot reads it, newline included. Its deadline is told on the
// module's own clock (the clock starts at the Unix epoch when the seat starts), so that a bot
// comparing its clock with the deadline compares like with like. Its legal notations are
// left out if the bot asked for that (the host keys the bot's random source by them).
func decisionLine(buf []byte, d *orreryv1.Decision, deadline time.Duration, enc Encoding, omitNotation bool) ([]byte, error) {
	real := d.Deadline
	if real != nil {
		d.Deadline = timestamppb.New(time.Unix(0, int64(deadline)))
		defer func() { d.Deadline = real }()
	}
	if notation := d.LegalNotation; omitNotation && notation != nil {
		d.LegalNotation = nil
		defer func() { d.LegalNotation = notation }()
	}
	var err error
	if enc == EncodingProtobuf {
		var bin []byte
		if bin, err = proto.Marshal(d); err != nil {
			return buf, err
		}
		buf = base64.StdEncoding.AppendEncode(buf[:0], bin)
	} else if buf, err = lineOut.MarshalAppend(buf[:0], d); err != nil {
		return buf, err
	}
	return append(buf, '\n'), nil
}

// firstLine reads the line a bot printed before its first decision: what its decisions
// carry, and how they are written.
func firstLine(text []byte) (*orreryv1.Receive, Encoding, error) {
	var fields map[string]json.RawMessage
	err := json.Unmarshal(text, &fields)
	if err == nil {
		for k := range fields {
			if k != "receive" && k != "encoding" {
				err = fmt.Errorf("unknown field %q", k)
			}
		}
	}
	if err != nil || len(fields) == 0 {
		return nil, "", fmt.Errorf(`printed %s before any decision; the only line allowed then is {"receive": {...}, "encoding": "json" or "protobuf"}`, quote(text))
	}
	r := DefaultReceive()
	if raw := fields["receive"]; raw != nil {
		r = new(orreryv1.Receive)
		if err := lineIn.Unmarshal(raw, r); err != nil {
			return nil, "", fmt.Errorf("receive line %s: %v", quote(text), err)
		}
	}
	enc := EncodingJSON
	if raw := fields["encoding"]; raw != nil {
		if err := json.Unmarshal(raw, &enc); err != nil || enc != EncodingJSON && enc != EncodingProtobuf {
			return nil, "", fmt.Errorf(`first line %s: encoding is "json" or "protobuf"`, quote(text))
		}
	}
	return r, enc, nil
}

// answerFields are the keys an answer line may have.
var answerFields = map[string]bool{"legal_index": true, "action": true, "notation": true, "debug": true}

// parseAnswer reads the bot's answer to d: an Answer for the seat, and the debug note.
func parseAnswer(text []byte, d *orreryv1.Decision) (*orreryv1.Answer, string, error) {
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&fields); err != nil || fields == nil {
		return nil, "", fmt.Errorf(`answer %s is not a JSON object; answer {"legal_index": N}`, quote(text))
	}
	if dec.More() {
		return nil, "", fmt.Errorf("answer %s has more than one JSON value on its line", quote(text))
	}
	var choices []string
	for k := range fields {
		if !answerFields[k] {
			return nil, "", fmt.Errorf("answer %s has the field %q; an answer has legal_index, action or notation, and debug", quote(text), k)
		}
		if k != "debug" {
			choices = append(choices, k)
		}
	}
	if len(choices) != 1 {
		return nil, "", fmt.Errorf("answer %s must have exactly one of legal_index, action, notation", quote(text))
	}
	var note string
	if raw := fields["debug"]; raw != nil {
		if err := json.Unmarshal(raw, &note); err != nil {
			return nil, "", fmt.Errorf("answer %s: debug must be a string", quote(text))
		}
	}
	a := &orreryv1.Answer{DecisionId: d.GetDecisionId(), MatchId: d.GetMatchId()}
	switch raw := fields[choices[0]]; choices[0] {
	case "legal_index":
		n, err := strconv.Atoi(string(raw))
		if err != nil {
			return nil, "", fmt.Errorf("answer %s: legal_index must be an integer", quote(text))
		}
		if count := bots.Count(d); n < 0 || n >= count {
			return nil, "", fmt.Errorf("answer %s: legal_index %d is out of range: the decision has %d legal actions", quote(text), n, count)
		}
		a.Choice = &orreryv1.Answer_LegalIndex{LegalIndex: int32(n)}
	case "action":
		act := new(orreryv1.Action)
		if err := lineIn.Unmarshal(raw, act); err != nil {
			return nil, "", fmt.Errorf("answer %s: action: %v", quote(text), err)
		}
		a.Choice = &orreryv1.Answer_Action{Action: act}
	case "notation":
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || s == "" {
			return nil, "", fmt.Errorf("answer %s: notation must be a non-empty string", quote(text))
		}
		a.Choice = &orreryv1.Answer_Notation{Notation: s}
	}
	return a, note, nil
}

// quote shows at most the start of a line the bot printed.
func quote(text []byte) string {
	const show = 80
	if len(text) > show {
		return strconv.Quote(string(text[:show])) + "..."
	}
	return strconv.Quote(string(text))
}
