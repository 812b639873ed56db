package icetraders

import (
	"encoding/binary"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// evKind is what an internal event records.
type evKind uint8

const (
	evAction        evKind = iota + 1 // seat played a
	evAssigned                        // seat was assigned its alignment (random option)
	evPicksRevealed                   // every opening pick, from the players' revealed picks
	evFirstPlayer                     // seat goes first
	evConcentration                   // a concentration at loc, caused by seat with catalyst ship
	evHyperClosed                     // hyperspace loc emptied and closed
	evEliminated                      // seat is out, credit to by
	evRevealed                        // every alignment, as in aligns
	evTurnedEvil                      // seat turned Evil
	evOver                            // the end, alignments in aligns
)

// Concentration effects, for the event's words.
const (
	effArmageddon uint8 = iota + 1
	effHyperspace
	effOffered
	effNothingDual
	effNothingSmall
	effNothingStash
	effNothingRevolt
	effNothingHyper
	effDiscardAll
)

var effectText = [...]string{
	effArmageddon:    "Armageddon: the system and every ship in it go to the stash",
	effHyperspace:    "Hyperspace: the marker goes to the stash and the ships are in a hyperspace",
	effOffered:       "the causer chooses",
	effNothingDual:   "nothing: the system is already dual",
	effNothingSmall:  "nothing: the marker is small",
	effNothingStash:  "nothing: the stash has no smaller piece",
	effNothingRevolt: "nothing: no other ship to take",
	effNothingHyper:  "nothing: in a hyperspace only red has an effect",
	effDiscardAll:    "every ship in the hyperspace goes to the stash",
}

// event is one entry of the compact internal log; Events turns it into protobuf per viewer.
type event struct {
	kind   evKind
	seat   int8
	by     int8
	conc   pb.ConcentrationKind
	effect uint8
	hyper  bool
	loc    int16
	ship   int16
	a      engine.Action
	aligns [6]Alignment
}

func (s *State) log(e event) { s.events = append(s.events, e) }

func (e *event) append(b []byte) []byte {
	b = append(b, byte(e.kind), byte(e.seat), byte(e.by), byte(e.conc), e.effect, bool8(e.hyper))
	b = binary.LittleEndian.AppendUint16(b, uint16(e.loc))
	b = binary.LittleEndian.AppendUint16(b, uint16(e.ship))
	b = binary.LittleEndian.AppendUint16(b, e.a.Kind)
	for _, v := range e.a.Arg {
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	}
	for _, al := range e.aligns {
		b = append(b, byte(al))
	}
	return b
}

// EventCount is the number of events so far.
func (s *State) EventCount() int { return len(s.events) }

// Events appends events from..end as seat sees them: another seat's alignment and picks are
// redacted to the fact that they were chosen.
func (s *State) Events(seat engine.Seat, from int, buf []proto.Message) []proto.Message {
	if from < 0 {
		from = 0
	}
	for i := from; i < len(s.events); i++ {
		buf = append(buf, s.eventProto(seat, &s.events[i]))
	}
	return buf
}

// EventsPublic reports whether the events from on read alike for every viewer: all do but
// a chosen alignment or opening picks (redacted for the other seats) and an assigned
// alignment (shown to its seat alone).
func (s *State) EventsPublic(from int) bool {
	for i := max(from, 0); i < len(s.events); i++ {
		if e := &s.events[i]; e.kind == evAssigned || e.kind == evAction && secretAction(e.a) {
			return false
		}
	}
	return true
}

// secretAction reports whether a is shown to its own seat alone.
func secretAction(a engine.Action) bool { return a.Kind == KindAlign || a.Kind == KindPicks }

var _ engine.PublicEvents = (*State)(nil)

func (s *State) eventProto(viewer engine.Seat, e *event) *pb.Event {
	switch e.kind {
	case evAction:
		// Nearly every event is an action taken: its message, arm and body are one block,
		// and its action's message and notation are shared (takenAction).
		b := new(actionTakenBlock)
		at := &b.at
		at.Seat = int32(e.seat)
		if secretAction(e.a) && viewer != engine.Seat(e.seat) {
			at.Redacted = true
			at.Notation = "chose an alignment"
			if e.a.Kind == KindPicks {
				at.Notation = "chose opening picks"
			}
		} else {
			at.Action, at.Notation = takenAction(e.a)
		}
		b.arm.ActionTaken = at
		b.ev.Kind = &b.arm
		return &b.ev
	case evAssigned:
		aa := &pb.AlignmentAssigned{Seat: int32(e.seat)}
		if viewer == engine.Seat(e.seat) {
			aa.Alignment = alignProto(s.players[e.seat].initialAlign())
		}
		return &pb.Event{Kind: &pb.Event_AlignmentAssigned{AlignmentAssigned: aa}}
	case evPicksRevealed:
		pr := &pb.PicksRevealed{}
		for i := range s.players {
			p := &s.players[i]
			pr.Picks = append(pr.Picks, &pb.SeatPicks{
				Seat: int32(i), First: pieceProto(p.revealed[0]), Second: pieceProto(p.revealed[1]),
				FirstServed: p.served[0] && !p.repicked[0], SecondServed: p.served[1] && !p.repicked[1],
			})
		}
		return &pb.Event{Kind: &pb.Event_PicksRevealed{PicksRevealed: pr}}
	case evFirstPlayer:
		fp := &pb.FirstPlayer{Seat: int32(e.seat)}
		for i := range s.players {
			fp.FirstPickConnections = append(fp.FirstPickConnections, int32(s.connections(i, 0)))
			fp.SecondPickConnections = append(fp.SecondPickConnections, int32(s.connections(i, 1)))
		}
		return &pb.Event{Kind: &pb.Event_FirstPlayer{FirstPlayer: fp}}
	case evConcentration:
		return &pb.Event{Kind: &pb.Event_Concentration{Concentration: &pb.Concentration{
			Kind: e.conc, LocationId: int32(e.loc), Causer: int32(e.seat), CatalystShipId: int32(e.ship),
			InHyperspace: e.hyper, Effect: effectText[e.effect],
		}}}
	case evHyperClosed:
		return &pb.Event{Kind: &pb.Event_HyperspaceClosed{HyperspaceClosed: &pb.HyperspaceClosed{Id: int32(e.loc)}}}
	case evEliminated:
		return &pb.Event{Kind: &pb.Event_Eliminated{Eliminated: &pb.Eliminated{Seat: int32(e.seat), By: int32(e.by)}}}
	case evRevealed:
		return &pb.Event{Kind: &pb.Event_AlignmentsRevealed{AlignmentsRevealed: &pb.AlignmentsRevealed{Alignments: s.alignProtos(e.aligns)}}}
	case evTurnedEvil:
		return &pb.Event{Kind: &pb.Event_TurnedEvil{TurnedEvil: &pb.TurnedEvil{Seat: int32(e.seat)}}}
	case evOver:
		return &pb.Event{Kind: &pb.Event_GameOver{GameOver: s.gameOverProto()}}
	}
	return &pb.Event{}
}

// actionTakenBlock is an ActionTaken event, allocated as one.
type actionTakenBlock struct {
	ev  pb.Event
	arm pb.Event_ActionTaken
	at  pb.ActionTaken
}

// takenActions holds the message and notation of actions taken so far, shared by every
// event that names them (never modified: the engine contract), as a server builds the events
// of every change. Bounded: past it, each is built anew.
var takenActions struct {
	mu sync.RWMutex
	m  map[engine.Action]takenMsg
}

type takenMsg struct {
	action   *pb.Action
	notation string
}

const maxTaken = 1 << 12

// takenAction is a's shared message and notation.
func takenAction(a engine.Action) (*pb.Action, string) {
	takenActions.mu.RLock()
	t, ok := takenActions.m[a]
	takenActions.mu.RUnlock()
	if ok {
		return t.action, t.notation
	}
	t = takenMsg{actionProto(a), formatAction(a)}
	takenActions.mu.Lock()
	defer takenActions.mu.Unlock()
	if takenActions.m == nil {
		takenActions.m = make(map[engine.Action]takenMsg)
	}
	if len(takenActions.m) < maxTaken {
		takenActions.m[a] = t
	}
	return t.action, t.notation
}

func (s *State) alignProtos(al [6]Alignment) []pb.Alignment {
	out := make([]pb.Alignment, len(s.players))
	for i := range out {
		out[i] = alignProto(al[i])
	}
	return out
}

func (s *State) gameOverProto() *pb.GameOver {
	g := &pb.GameOver{Kind: s.end, Detail: s.endDetail()}
	for i := range s.players {
		if s.winners&(1<<i) != 0 {
			g.Winners = append(g.Winners, int32(i))
		}
		g.Alignments = append(g.Alignments, alignProto(s.players[i].align))
	}
	return g
}

// initialAlign is the alignment the player started with.
func (p *player) initialAlign() Alignment {
	if p.turnedEvil {
		return Good
	}
	return p.align
}
