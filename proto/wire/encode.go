package wire

import (
	"slices"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/orrery/orrery/engine"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Field numbers of the messages AppendDecisionResponse writes by hand.
const (
	playResponseDecision = 2 // PlayResponse.decision
	decisionLegal        = 5 // Decision.legal
)

// encodedLegal holds, for each envelope an ActionCache shares, its bytes as one entry of
// Decision.legal (tag, length, message). A cached envelope never changes, so its bytes are
// computed once and copied into every decision that lists it: most of a decision's size
// and of its marshalling cost is its typed legal list.
var encodedLegal sync.Map // *orreryv1.Action → []byte

func registerEncoded(env *orreryv1.Action) {
	if entry, err := encodeEntry(env); err == nil {
		encodedLegal.Store(env, entry)
	} // never fails for a well-formed envelope; the codec then encodes it each time
}

// forgetEncoded drops the encoded bytes of a collected cache's envelopes.
func forgetEncoded(cached map[engine.Action]cachedAction) {
	for _, ca := range cached {
		encodedLegal.Delete(ca.env)
	}
}

func legalEntry(env *orreryv1.Action) ([]byte, error) {
	if b, ok := encodedLegal.Load(env); ok {
		return b.([]byte), nil
	}
	return encodeEntry(env)
}

// encodeEntry is env as one entry of Decision.legal: tag, length, message.
func encodeEntry(env *orreryv1.Action) ([]byte, error) {
	b, err := env.MarshalVT()
	if err != nil {
		return nil, err
	}
	entry := protowire.AppendTag(make([]byte, 0, len(b)+4), decisionLegal, protowire.BytesType)
	return protowire.AppendBytes(entry, b), nil
}

// entryLists lends AppendDecisionResponse a list for a decision's legal entries: one is
// encoded for every decision sent.
var entryLists sync.Pool // *[][]byte

// decisionFields is the number of fields withoutLegal copies, plus legal itself: a test
// fails when Decision gains a field this file does not know.
const decisionFields = 13

// withoutLegal is a shallow copy of d with no legal list; d is not modified, since a
// decision may be sent on several streams at once.
func withoutLegal(d *orreryv1.Decision) *orreryv1.Decision {
	return &orreryv1.Decision{
		DecisionId: d.DecisionId, Deadline: d.Deadline, TimeBank: d.TimeBank, Observation: d.Observation,
		LegalNotation: d.LegalNotation, Text: d.Text, Ply: d.Ply, Seat: d.Seat, Events: d.Events,
		MatchId: d.MatchId, LegalCount: d.LegalCount, LastRoundTrip: d.LastRoundTrip,
	}
}

// AppendDecisionResponse appends the wire form of PlayResponse{decision: d} to buf, the
// same message proto.Marshal would write (decision.legal last, which protobuf allows), with
// each cached legal envelope copied as ready-made bytes instead of marshalled again, and the
// rest marshalled by the generated code.
func AppendDecisionResponse(buf []byte, d *orreryv1.Decision) ([]byte, error) {
	rest := withoutLegal(d)
	restSize := rest.SizeVT()
	size := restSize
	list, _ := entryLists.Get().(*[][]byte)
	if list == nil {
		list = new([][]byte)
	}
	defer func() { clear(*list); entryLists.Put(list) }()
	entries := slices.Grow((*list)[:0], len(d.Legal))
	for _, env := range d.Legal {
		entry, err := legalEntry(env)
		if err != nil {
			return nil, err
		}
		entries = append(entries, entry)
		size += len(entry)
	}
	*list = entries
	// Grown once to the whole message: appended from nil, the tag, the length and the body
	// each grew it (three allocations, the last copying what came before).
	buf = slices.Grow(buf, protowire.SizeTag(playResponseDecision)+protowire.SizeBytes(size))
	buf = protowire.AppendTag(buf, playResponseDecision, protowire.BytesType)
	buf = protowire.AppendVarint(buf, uint64(size))
	at := len(buf)
	buf = buf[:at+restSize]
	if _, err := rest.MarshalToSizedBufferVT(buf[at:]); err != nil {
		return nil, err
	}
	for _, e := range entries {
		buf = append(buf, e...)
	}
	return buf, nil
}
