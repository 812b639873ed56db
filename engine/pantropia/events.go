package pantropia

import "github.com/orrery/orrery/engine"

// Internal event kinds; the numbers match the proto EventKind.
const (
	evNone uint8 = iota
	evSettle
	evSkipSetup
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
	act    engine.Action
}

func (e *event) setChips(c [NumColors]int32) {
	for i, n := range c {
		e.chips[i] = int16(min(n, 32767))
	}
}

func (s *state) log(e event) { s.events = append(s.events, e) }
