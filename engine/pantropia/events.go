package pantropia

import "github.com/orrery/orrery/engine"

// Internal event kinds; the numbers match the proto EventKind.
const (
	evNone uint8 = iota
	evSettle
	evSkipSetup // no longer logged: no seat is skipped in setup (2026-11-30); kept for the numbering
	evRoll
	evProduce
	evLudditePass
	evLuddite
	evTerraform
	evPantropy
	evEarth
	evOffer
	evAccept
	evDecline
	evRing
	evHabitat
	evArcology
	evShuttle
	evBuy
	evDraw
	evCountdown
	evPlay
	evCancelled
	evRemove
	evShadeSkip
	evMirrorSkip
	evShuttleMoved
	evAquifer
	evComet
	evElevator
	evTechnocalypse
	evDemote
	evAbandon
	evElevatorDiscarded
	evShuttleReturned
	evDiscard
	evEndTurn
	evGameOver
)

// event is one entry of the compact log that Apply appends to; Events turns it into the
// proto message lazily. The meaning of a, b, c and the chip vectors depends on kind.
type event struct {
	kind   uint8
	seat   int8
	other  int8
	a, b   int16
	c      int16
	chips  [NumColors]int16
	chips2 [NumColors]int16
	// The card play of an evPlay or evCancelled event, whose arguments are three at most:
	// the log keeps these rather than a whole action, as an event is copied at every append
	// and most events are not card plays (see played).
	playKind uint16
	playArgs [3]int16
}

// playEvent is an event of kind recording seat's card play a.
func playEvent(kind uint8, seat int8, a engine.Action) event {
	return event{kind: kind, seat: seat, playKind: a.Kind, playArgs: [3]int16(a.Arg[:3])}
}

// played is the card play e records, the zero action for an event that records none.
func (e *event) played() engine.Action {
	a := engine.Action{Kind: e.playKind}
	copy(a.Arg[:], e.playArgs[:])
	return a
}

func (e *event) setChips(c [NumColors]int32) {
	for i, n := range c {
		e.chips[i] = int16(min(n, 32767))
	}
}

func (s *state) log(e event) { s.events.add(e) }

// eventChunk is how many events one chunk of the log holds.
const eventChunk = 128

// eventLog is the append-only event log in fixed-size chunks. Full chunks are never written
// again, so clones share them; a clone copies only the outer slice and caps its last chunk,
// so its first append copies at most one chunk rather than the whole log.
type eventLog struct {
	chunks [][]event
	n      int
}

func (l *eventLog) add(e event) {
	// Most adds have room in their own last chunk (a clone's shared chunk has none).
	if k := len(l.chunks) - 1; k >= 0 && len(l.chunks[k]) < cap(l.chunks[k]) {
		l.chunks[k] = append(l.chunks[k], e)
		l.n++
		return
	}
	l.grow(e)
}

// grow adds e where the last chunk is full or shared: to a new chunk, or to a copy.
func (l *eventLog) grow(e event) {
	k := len(l.chunks) - 1
	switch {
	case k < 0 || len(l.chunks[k]) == eventChunk:
		l.chunks = append(l.chunks, make([]event, 0, eventChunk))
		k++
	case len(l.chunks[k]) == cap(l.chunks[k]): // a clone's shared last chunk: copy it
		c := make([]event, len(l.chunks[k]), eventChunk)
		copy(c, l.chunks[k])
		l.chunks[k] = c
	}
	l.chunks[k] = append(l.chunks[k], e)
	l.n++
}

func (l *eventLog) at(i int) *event { return &l.chunks[i/eventChunk][i%eventChunk] }

func (l *eventLog) clone() eventLog {
	c := eventLog{n: l.n, chunks: make([][]event, len(l.chunks), len(l.chunks)+1)}
	copy(c.chunks, l.chunks)
	if k := len(c.chunks) - 1; k >= 0 {
		c.chunks[k] = c.chunks[k][:len(c.chunks[k]):len(c.chunks[k])]
	}
	return c
}
