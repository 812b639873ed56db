package match

import (
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// eventRef numbers the match's events: an engine event by its index, or a timeout.
type eventRef struct {
	engine   int // -1 for a service event
	timedOut int // the seat that timed out, for a service event
	policy   orreryv1.TimeoutPolicy
}

// sharedEvents are the events numbered from on, as every viewer reads them. They are sent
// to several seats and must not be changed.
type sharedEvents struct {
	from   int64
	events []*orreryv1.Event
}

// oneEvent is a list of one game event, allocated as one.
type oneEvent struct {
	parts [1]wire.EventParts
	list  [1]*orreryv1.Event
}

// builtEvents is how many of the last public events a match keeps built (match.built).
const builtEvents = 16

// eventLog numbers a match's events, and keeps what it last built of them for viewers
// alike. It is a match's (guarded by its lock) or a replay's.
type eventLog struct {
	refs []eventRef
	// shared is the run of events last built for every viewer alike (engine.PublicEvents):
	// the seats sent the same events after a change share one build of them.
	shared sharedEvents
	// built are the last public events built, by seq: each seat is sent the events since its
	// own last decision, so the runs of two seats overlap rather than coincide, and an event
	// already built for one is shared with the next rather than built again.
	built [builtEvents]*orreryv1.Event
	// scratch is a list the engine's events are listed into (build).
	scratch []proto.Message
}

// eventsLocked is seat's view of the match's events numbered from cursor on.
func (m *Match) eventsLocked(seat engine.Seat, cursor int64) []*orreryv1.Event {
	return m.ev.build(m.st, seat, cursor)
}

// build is seat's view, in st, of the events numbered from cursor on.
func (l *eventLog) build(st engine.State, seat engine.Seat, cursor int64) []*orreryv1.Event {
	if cursor < 0 || cursor >= int64(len(l.refs)) {
		return nil
	}
	refs := l.refs[cursor:]
	if sh := l.shared; sh.from == cursor && len(sh.events) == len(refs) {
		return sh.events[:len(refs):len(refs)]
	}
	first := firstGameEvent(refs)
	public := first < 0 // the service's own events (timeouts) read alike for everyone
	if pe, ok := st.(engine.PublicEvents); ok && first >= 0 {
		public = pe.EventsPublic(first)
	}
	var out []*orreryv1.Event
	from := cursor // the first event to build; those before it were built for another viewer
	if public {
		for ; from < int64(len(l.refs)); from++ {
			if e := l.built[from%builtEvents]; e == nil || e.GetSeq() != from {
				break
			}
		}
		if from > cursor {
			out = make([]*orreryv1.Event, 0, len(refs))
			for seq := cursor; seq < from; seq++ {
				out = append(out, l.built[seq%builtEvents])
			}
		}
		refs = l.refs[from:]
		first = firstGameEvent(refs)
	}
	var game []proto.Message
	if first >= 0 {
		game = st.Events(seat, first, l.scratch[:0])
		defer func() { l.scratch = game[:0]; clear(game) }() // a scratch list: keep no event alive
	}
	var parts []wire.EventParts // the envelopes of every game event, in one block
	switch {
	case out == nil && len(refs) == 1 && len(game) == 1:
		// Most changes cause one event: its envelopes and the list are one block.
		one := new(oneEvent)
		out, parts = one.list[:0:1], one.parts[:]
	case out == nil:
		out, parts = make([]*orreryv1.Event, 0, len(refs)), make([]wire.EventParts, len(game))
	default:
		parts = make([]wire.EventParts, len(game))
	}
	gi := 0
	for i, r := range refs {
		seq := from + int64(i)
		var e *orreryv1.Event
		if r.engine >= 0 {
			if gi >= len(game) {
				break // the engine redacted nothing away: counts always match
			}
			e = parts[gi].Game(seq, game[gi])
			gi++
		} else {
			e = &orreryv1.Event{Seq: seq, Kind: &orreryv1.Event_TimedOut{TimedOut: &orreryv1.SeatTimedOut{Seat: int32(r.timedOut), Policy: r.policy}}}
		}
		out = append(out, e)
		if public {
			l.built[seq%builtEvents] = e
		}
	}
	if public {
		l.shared = sharedEvents{from: cursor, events: out}
	}
	return out
}

// firstGameEvent is the engine's number of the first game event among refs, or -1 if they
// are all the service's own.
func firstGameEvent(refs []eventRef) int {
	for _, r := range refs {
		if r.engine >= 0 {
			return r.engine
		}
	}
	return -1
}
