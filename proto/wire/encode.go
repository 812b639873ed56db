package wire

import (
	"slices"
	"sync"

	"google.golang.org/grpc/mem"
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

// decisionFields is the number of fields setWithoutLegal copies, plus legal itself: a test
// fails when Decision gains a field this file does not know.
const decisionFields = 13

// setWithoutLegal makes rest a shallow copy of d with no legal list; d is not modified, since
// a decision may be sent on several streams at once.
func setWithoutLegal(rest, d *orreryv1.Decision) {
	rest.DecisionId, rest.Deadline, rest.TimeBank, rest.Observation = d.DecisionId, d.Deadline, d.TimeBank, d.Observation
	rest.LegalNotation, rest.Text, rest.Ply, rest.Seat, rest.Events = d.LegalNotation, d.Text, d.Ply, d.Seat, d.Events
	rest.MatchId, rest.LegalCount, rest.LastRoundTrip = d.MatchId, d.LegalCount, d.LastRoundTrip
}

// AppendDecisionResponse appends the wire form of PlayResponse{decision: d} to buf, the
// same message proto.Marshal would write (decision.legal last, which protobuf allows), with
// each cached legal envelope copied as ready-made bytes instead of marshalled again, and the
// rest marshalled by the generated code.
func AppendDecisionResponse(buf []byte, d *orreryv1.Decision) ([]byte, error) {
	var e decisionEncoding
	defer e.free() // the entries' list goes back even when sizing fails
	if err := e.size(d); err != nil {
		return nil, err
	}
	// Grown once to the whole message: appended from nil, the tag, the length and the body
	// each grew it (three allocations, the last copying what came before).
	return e.append(slices.Grow(buf, e.total()))
}

// MarshalDecisionResponse is AppendDecisionResponse as gRPC's codecs give a message: a large
// one (most decisions listing their actions) in a buffer of gRPC's pool, which gRPC gives
// back once it has written it, as Codec.Marshal does.
func MarshalDecisionResponse(d *orreryv1.Decision) (mem.BufferSlice, error) {
	var e decisionEncoding
	defer e.free() // the entries' list goes back even when sizing fails
	if err := e.size(d); err != nil {
		return nil, err
	}
	total := e.total()
	if mem.IsBelowBufferPoolingThreshold(total) {
		b, err := e.append(make([]byte, 0, total))
		if err != nil {
			return nil, err
		}
		return Slice(b), nil
	}
	pool := mem.DefaultBufferPool()
	buf := pool.Get(total)
	b, err := e.append((*buf)[:0])
	if err != nil {
		pool.Put(buf)
		return nil, err
	}
	*buf = b // within the buffer's capacity: total bytes
	return mem.BufferSlice{mem.NewBuffer(buf, pool)}, nil
}

// decisionEncoding is a decision's response measured for encoding: the decision without its
// legal list, and the list's ready-made entries. It lives on its caller's stack.
type decisionEncoding struct {
	rest     orreryv1.Decision
	restSize int
	body     int // the decision's size: rest and entries
	list     *[][]byte
}

// size measures d, taking a list for its entries from entryLists (free gives it back).
func (e *decisionEncoding) size(d *orreryv1.Decision) error {
	setWithoutLegal(&e.rest, d)
	e.restSize = e.rest.SizeVT()
	e.body = e.restSize
	e.list, _ = entryLists.Get().(*[][]byte)
	if e.list == nil {
		e.list = new([][]byte)
	}
	entries := slices.Grow((*e.list)[:0], len(d.Legal))
	for _, env := range d.Legal {
		entry, err := legalEntry(env)
		if err != nil {
			*e.list = entries
			return err
		}
		entries = append(entries, entry)
		e.body += len(entry)
	}
	*e.list = entries
	return nil
}

// total is the size of the whole response: its tag and length, and the decision.
func (e *decisionEncoding) total() int {
	return protowire.SizeTag(playResponseDecision) + protowire.SizeBytes(e.body)
}

// append appends the response to buf, which has room for it.
func (e *decisionEncoding) append(buf []byte) ([]byte, error) {
	buf = protowire.AppendTag(buf, playResponseDecision, protowire.BytesType)
	buf = protowire.AppendVarint(buf, uint64(e.body))
	at := len(buf)
	buf = buf[:at+e.restSize]
	if _, err := e.rest.MarshalToSizedBufferVT(buf[at:]); err != nil {
		return nil, err
	}
	for _, entry := range *e.list {
		buf = append(buf, entry...)
	}
	return buf, nil
}

// free gives the entries' list back, cleared so that it holds no entries alive.
func (e *decisionEncoding) free() {
	if e.list != nil {
		clear(*e.list)
		entryLists.Put(e.list)
		e.list = nil
	}
}
