// Package wire turns engine values into orrery.v1 messages and back: the one place that
// wraps a game's own protobuf messages in the envelope's oneof arms. The server and the
// in-process bot harness both build decisions here, so a bot sees the same Decision either way.
package wire

import (
	"fmt"
	"sync"
	"unsafe"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/orrery/orrery/engine"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
	icetradersv1 "github.com/orrery/orrery/proto/orrery/icetraders/v1"
	pantropiav1 "github.com/orrery/orrery/proto/orrery/pantropia/v1"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// arms maps a game message's full name to the envelope field that carries it, per envelope.
var arms sync.Map // map[armKey]protoreflect.FieldDescriptor

type armKey struct {
	envelope protoreflect.FullName
	game     protoreflect.FullName
}

// wrap sets m into the oneof arm of env whose message type is m's type.
func wrap(env proto.Message, m proto.Message) error {
	if m == nil {
		return nil
	}
	er := env.ProtoReflect()
	key := armKey{er.Descriptor().FullName(), m.ProtoReflect().Descriptor().FullName()}
	fd, ok := arms.Load(key)
	if !ok {
		fields := er.Descriptor().Fields()
		for i := 0; i < fields.Len(); i++ {
			f := fields.Get(i)
			if f.Message() != nil && f.Message().FullName() == key.game {
				fd, ok = f, true
				arms.Store(key, f)
				break
			}
		}
		if !ok {
			return fmt.Errorf("wire: %s has no arm for %s", key.envelope, key.game)
		}
	}
	er.Set(fd.(protoreflect.FieldDescriptor), protoreflect.ValueOfMessage(m.ProtoReflect()))
	return nil
}

// unwrap returns the message in env's set oneof arm, or nil.
func unwrap(env proto.Message) proto.Message {
	er := env.ProtoReflect()
	oneofs := er.Descriptor().Oneofs()
	for i := 0; i < oneofs.Len(); i++ {
		if fd := er.WhichOneof(oneofs.Get(i)); fd != nil && fd.Message() != nil {
			return er.Get(fd).Message().Interface()
		}
	}
	return nil
}

func must(err error) {
	if err != nil {
		panic(err) // a game message missing from the envelope is a build error, not input
	}
}

// Action wraps a game's typed action. The four games take a direct path; reflection is the
// fallback, and a game missing from the envelope is a build error found by the first use.
func Action(m proto.Message) *orreryv1.Action {
	a := &orreryv1.Action{}
	wrapAction(a, m)
	return a
}

// Observation wraps a game's typed observation.
func Observation(m proto.Message) *orreryv1.Observation {
	switch g := m.(type) {
	case *icetradersv1.Observation:
		return &orreryv1.Observation{Game: &orreryv1.Observation_Icetraders{Icetraders: g}}
	case *planetv1.Observation:
		return &orreryv1.Observation{Game: &orreryv1.Observation_Planet{Planet: g}}
	case *pantropiav1.Observation:
		return &orreryv1.Observation{Game: &orreryv1.Observation_Pantropia{Pantropia: g}}
	case *fccatanv1.Observation:
		return &orreryv1.Observation{Game: &orreryv1.Observation_Fccatan{Fccatan: g}}
	}
	o := &orreryv1.Observation{}
	must(wrap(o, m))
	return o
}

// wrap sets m into o's arm, from arms for the four games: Observation without allocating.
func (arms *observationArms) wrap(o *orreryv1.Observation, m proto.Message) *orreryv1.Observation {
	switch g := m.(type) {
	case *icetradersv1.Observation:
		arms.icetraders.Icetraders = g
		o.Game = &arms.icetraders
	case *planetv1.Observation:
		arms.planet.Planet = g
		o.Game = &arms.planet
	case *pantropiav1.Observation:
		arms.pantropia.Pantropia = g
		o.Game = &arms.pantropia
	case *fccatanv1.Observation:
		arms.fccatan.Fccatan = g
		o.Game = &arms.fccatan
	default:
		must(wrap(o, m))
	}
	return o
}

// GameEvent wraps a game's typed event.
func GameEvent(m proto.Message) *orreryv1.GameEvent {
	switch g := m.(type) {
	case *icetradersv1.Event:
		return &orreryv1.GameEvent{Game: &orreryv1.GameEvent_Icetraders{Icetraders: g}}
	case *planetv1.Event:
		return &orreryv1.GameEvent{Game: &orreryv1.GameEvent_Planet{Planet: g}}
	case *pantropiav1.Event:
		return &orreryv1.GameEvent{Game: &orreryv1.GameEvent_Pantropia{Pantropia: g}}
	case *fccatanv1.Event:
		return &orreryv1.GameEvent{Game: &orreryv1.GameEvent_Fccatan{Fccatan: g}}
	}
	e := &orreryv1.GameEvent{}
	must(wrap(e, m))
	return e
}

// EventParts is an event and its envelopes, to be allocated many at once: a server builds
// the events of every change.
type EventParts struct {
	event orreryv1.Event
	game  orreryv1.Event_Game
	ge    orreryv1.GameEvent
	arms  struct {
		icetraders orreryv1.GameEvent_Icetraders
		planet     orreryv1.GameEvent_Planet
		pantropia  orreryv1.GameEvent_Pantropia
		fccatan    orreryv1.GameEvent_Fccatan
	}
}

// Game is the event numbered seq carrying m, a game's typed event, built in the parts, which
// must be new.
func (p *EventParts) Game(seq int64, m proto.Message) *orreryv1.Event {
	switch g := m.(type) {
	case *icetradersv1.Event:
		p.arms.icetraders.Icetraders = g
		p.ge.Game = &p.arms.icetraders
	case *planetv1.Event:
		p.arms.planet.Planet = g
		p.ge.Game = &p.arms.planet
	case *pantropiav1.Event:
		p.arms.pantropia.Pantropia = g
		p.ge.Game = &p.arms.pantropia
	case *fccatanv1.Event:
		p.arms.fccatan.Fccatan = g
		p.ge.Game = &p.arms.fccatan
	default:
		must(wrap(&p.ge, m))
	}
	p.game.Game = &p.ge
	p.event.Seq, p.event.Kind = seq, &p.game
	return &p.event
}

// Catalog wraps a game's static catalog; nil stays nil.
func Catalog(m proto.Message) *orreryv1.Catalog {
	if m == nil {
		return nil
	}
	c := &orreryv1.Catalog{}
	must(wrap(c, m))
	return c
}

// GameAction is the game message inside a typed action, or nil if none is set.
func GameAction(a *orreryv1.Action) proto.Message {
	if a == nil {
		return nil
	}
	return unwrap(a)
}

// GameObservation is the game message inside an observation, or nil.
func GameObservation(o *orreryv1.Observation) proto.Message {
	if o == nil {
		return nil
	}
	return unwrap(o)
}

// GameEventOf is the game message inside an event, or nil.
func GameEventOf(e *orreryv1.GameEvent) proto.Message {
	if e == nil {
		return nil
	}
	return unwrap(e)
}

// Decision builds seat's decision from st, with its legal actions in st's order. The clock
// fields (id, deadline, time bank) are the caller's.
func Decision(st engine.State, seat engine.Seat, legal []engine.Action, ply int64) *orreryv1.Decision {
	return CachedDecision(st, seat, legal, ply, nil)
}

// CachedDecision is Decision drawing the legal actions' envelopes and notation from cache
// (nil: none).
func CachedDecision(st engine.State, seat engine.Seat, legal []engine.Action, ply int64, cache *ActionCache) *orreryv1.Decision {
	return DecisionFor(st, seat, legal, ply, cache, nil)
}

// DecisionFor is CachedDecision with only the parts recv asks for (nil: every part). What a
// seat left out is never built: the text and the typed lists are most of a decision's cost.
func DecisionFor(st engine.State, seat engine.Seat, legal []engine.Action, ply int64, cache *ActionCache, recv *orreryv1.Receive) *orreryv1.Decision {
	return new(DecisionParts).Build(st, seat, legal, ply, cache, recv)
}

// DecisionParts is a decision and its observation's envelopes, allocated as one block: a
// server builds a decision per answer, and each envelope was an allocation of its own. A
// caller may embed it in a larger block (the message around the decision).
type DecisionParts struct {
	decision    orreryv1.Decision
	observation orreryv1.Observation
	arms        observationArms
	// scratch is the game's memory for the view (engine.Reobserver), and text the memory of
	// the view's text (engine.ObservationAppender), both kept by Reset: parts built again
	// build their view and its text in the last one's memory.
	scratch any
	text    []byte
	// listHash is the hash of the legal list Build is given, if hashed (Hashed).
	listHash uint64
	hashed   bool
}

// Hashed tells Build the hash of the legal list it will be given (ListHash), which the
// caller has already: a list is hashed to find it among the shared ones.
func (p *DecisionParts) Hashed(h uint64) { p.listHash, p.hashed = h, true }

// Reset makes the parts new again for Build, keeping the memory of their view: the
// decision last built in them, its view included, must be read by nobody any more.
func (p *DecisionParts) Reset() {
	scratch, text := p.scratch, p.text
	*p = DecisionParts{scratch: scratch, text: text[:0]}
}

// observationArms are the observation oneof's arms, one per game.
type observationArms struct {
	icetraders orreryv1.Observation_Icetraders
	planet     orreryv1.Observation_Planet
	pantropia  orreryv1.Observation_Pantropia
	fccatan    orreryv1.Observation_Fccatan
}

// Build is DecisionFor into the parts, which must be new or Reset: the decision returned
// lives in them.
func (p *DecisionParts) Build(st engine.State, seat engine.Seat, legal []engine.Action, ply int64, cache *ActionCache, recv *orreryv1.Receive) *orreryv1.Decision {
	d := &p.decision
	d.Seat, d.Ply, d.LegalCount = int32(seat), ply, int32(len(legal))
	var obs proto.Message
	if !recv.GetOmitObservation() || !recv.GetOmitText() {
		if ro, ok := st.(engine.Reobserver); ok {
			obs = ro.ObserveInto(seat, &p.scratch)
		} else {
			obs = st.Observe(seat)
		}
	}
	if !recv.GetOmitObservation() {
		d.Observation = p.arms.wrap(&p.observation, obs)
	}
	if !recv.GetOmitText() {
		switch r := st.(type) {
		case engine.ObservationAppender:
			// The text lives in the parts, as the view does: Reset lets the next Build draw
			// over it, and the decision built here must be read by nobody by then.
			p.text = r.AppendObservation(p.text, obs)
			d.Text = unsafe.String(unsafe.SliceData(p.text), len(p.text))
		case engine.ObservationRenderer:
			d.Text = r.RenderObservation(obs)
		default:
			d.Text = st.Render(seat)
		}
	}
	typed, notation := !recv.GetOmitLegal(), !recv.GetOmitLegalNotation()
	if !typed && !notation {
		return d
	}
	var listHash uint64
	share := cache != nil && len(legal) <= maxListed
	if share {
		var l *cachedList
		if !p.hashed {
			p.listHash = hashList(legal)
		}
		p.hashed = false // told for this Build only
		if l, listHash = cache.listedAs(legal, p.listHash); l != nil && l.built {
			if typed {
				d.Legal = l.env
			}
			if notation {
				d.LegalNotation = l.notation
			}
			return d
		}
		// Built whole, so that the lists may be shared once admitted.
		typed, notation = true, true
	}
	if typed {
		d.Legal = make([]*orreryv1.Action, len(legal))
	}
	if notation {
		d.LegalNotation = make([]string, len(legal))
	}
	if cache != nil {
		// One read lock for the whole list, not one per action; the actions not cached yet
		// are built after it.
		put := func(i int, ca cachedAction) {
			if typed {
				d.Legal[i] = ca.env
			}
			if notation {
				d.LegalNotation[i] = ca.notation
			}
		}
		missed := false
		cache.mu.RLock()
		for i, a := range legal {
			if ca, ok := cache.m[a]; ok {
				put(i, ca)
			} else {
				missed = true
			}
		}
		cache.mu.RUnlock()
		if missed {
			for i, a := range legal {
				if (typed && d.Legal[i] == nil) || (!typed && d.LegalNotation[i] == "") {
					put(i, cache.get(st, a))
				}
			}
		}
		if share {
			cache.admit(listHash, legal, d)
			if recv.GetOmitLegal() {
				d.Legal = nil
			}
			if recv.GetOmitLegalNotation() {
				d.LegalNotation = nil
			}
		}
		return d
	}
	// The envelopes are allocated in one block: a legal list can hold hundreds of actions.
	var envelopes []orreryv1.Action
	if typed {
		envelopes = make([]orreryv1.Action, len(legal))
	}
	for i, a := range legal {
		if typed {
			d.Legal[i] = &envelopes[i]
			wrapAction(&envelopes[i], st.ActionProto(a))
		}
		if notation {
			d.LegalNotation[i] = st.FormatAction(a)
		}
	}
	return d
}

// wrapAction sets m into env's arm: Action without allocating the envelope.
func wrapAction(env *orreryv1.Action, m proto.Message) {
	switch g := m.(type) {
	case *icetradersv1.Action:
		env.Game = &orreryv1.Action_Icetraders{Icetraders: g}
	case *planetv1.Action:
		env.Game = &orreryv1.Action_Planet{Planet: g}
	case *pantropiav1.Action:
		env.Game = &orreryv1.Action_Pantropia{Pantropia: g}
	case *fccatanv1.Action:
		env.Game = &orreryv1.Action_Fccatan{Fccatan: g}
	default:
		must(wrap(env, m))
	}
}

// Result converts an engine result.
func Result(r engine.Result) *orreryv1.Result {
	out := &orreryv1.Result{
		Ranks:  make([]int32, len(r.Ranks)),
		Scores: append([]float64(nil), r.Scores...),
		Reason: EndReason(r.Reason),
		Detail: r.Detail,
	}
	for i, rank := range r.Ranks {
		out.Ranks[i] = int32(rank)
	}
	return out
}

// EndReason converts an engine end reason.
func EndReason(r engine.EndReason) orreryv1.EndReason {
	switch r {
	case engine.EndNormal:
		return orreryv1.EndReason_END_REASON_NORMAL
	case engine.EndCap:
		return orreryv1.EndReason_END_REASON_CAP
	case engine.EndForfeit:
		return orreryv1.EndReason_END_REASON_FORFEIT
	case engine.EndAborted:
		return orreryv1.EndReason_END_REASON_ABORTED
	}
	return orreryv1.EndReason_END_REASON_UNSPECIFIED
}

// EngineEndReason is EndReason's inverse, for a result read back from the store or the wire;
// a reason this build does not know was not a normal end, so it reads as an abort.
func EngineEndReason(r orreryv1.EndReason) engine.EndReason {
	switch r {
	case orreryv1.EndReason_END_REASON_NORMAL:
		return engine.EndNormal
	case orreryv1.EndReason_END_REASON_CAP:
		return engine.EndCap
	case orreryv1.EndReason_END_REASON_FORFEIT:
		return engine.EndForfeit
	}
	return engine.EndAborted
}

// GameInfo converts a game's description and catalog.
func GameInfo(g engine.Game) *orreryv1.GameInfo {
	info := g.Info()
	out := &orreryv1.GameInfo{
		Name:         info.Name,
		Title:        info.Title,
		MinSeats:     int32(info.MinSeats),
		MaxSeats:     int32(info.MaxSeats),
		Simultaneous: info.Simultaneous,
		RealTime:     info.RealTime,
		Catalog:      Catalog(g.Catalog()),
	}
	for _, o := range info.Options {
		out.Options = append(out.Options, &orreryv1.GameOption{Name: o.Name, DefaultValue: o.Default, Help: o.Help})
	}
	return out
}

// Answer reads a bot's answer into an engine action: by index into legal, by typed action, or
// by notation. A malformed answer gets REJECT_CODE_MALFORMED; legality is Apply's to judge.
func Answer(st engine.State, legal []engine.Action, ans *orreryv1.Answer) (engine.Action, orreryv1.RejectCode, error) {
	switch c := ans.GetChoice().(type) {
	case *orreryv1.Answer_LegalIndex:
		if c.LegalIndex < 0 || int(c.LegalIndex) >= len(legal) {
			return engine.Action{}, orreryv1.RejectCode_REJECT_CODE_MALFORMED,
				fmt.Errorf("legal_index %d out of range: %d legal actions", c.LegalIndex, len(legal))
		}
		return legal[c.LegalIndex], orreryv1.RejectCode_REJECT_CODE_UNSPECIFIED, nil
	case *orreryv1.Answer_Action:
		m := GameAction(c.Action)
		if m == nil {
			return engine.Action{}, orreryv1.RejectCode_REJECT_CODE_MALFORMED, fmt.Errorf("typed action has no game arm set")
		}
		a, err := st.ActionFromProto(m)
		if err != nil {
			return engine.Action{}, orreryv1.RejectCode_REJECT_CODE_MALFORMED, err
		}
		return a, orreryv1.RejectCode_REJECT_CODE_UNSPECIFIED, nil
	case *orreryv1.Answer_Notation:
		a, err := st.ParseAction(c.Notation)
		if err != nil {
			return engine.Action{}, orreryv1.RejectCode_REJECT_CODE_MALFORMED, err
		}
		return a, orreryv1.RejectCode_REJECT_CODE_UNSPECIFIED, nil
	}
	return engine.Action{}, orreryv1.RejectCode_REJECT_CODE_MALFORMED, fmt.Errorf("answer has no choice: set legal_index, action or notation")
}
