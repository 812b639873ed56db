package planet

import (
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

// event is one entry of the compact internal log; Events turns it into a typed message for a
// viewer. Its fields mean what its kind says.
type event struct {
	kind uint8
	turn int8
	seat int8
	x    int8  // face, stack (11, 12, or 0 for the box), or tie-break
	a    int16 // tile or card id
	b    int16 // rotation or value
}

const (
	evObjective uint8 = iota + 1 // seat got its objective
	evTurn                       // turn started, seat is the first player
	evPlace                      // seat placed tile a on face x, rotation b
	evLeftover                   // tile a went to stack x (0: the box)
	evWon                        // card a of column turn won by seat with value b, tie-break x
	evCarried                    // card a moved from column turn to the next
	evReturned                   // card a went back to the box on turn
	evFirst                      // the token passed to seat
	evMystery                    // card a of column turn was revealed
	evEnd                        // the game ended
)

func (s *state) log(e event) { s.events = append(s.events, e) }

func (s *state) EventCount() int { return len(s.events) }

// Events builds the typed events from..end for seat. The only secret an event carries is an
// objective's habitat, shown to its owner alone until the end.
func (s *state) Events(seat engine.Seat, from int, buf []proto.Message) []proto.Message {
	for i := max(from, 0); i < len(s.events); i++ {
		buf = append(buf, s.eventProto(seat, s.events[i]))
	}
	return buf
}

func (s *state) eventProto(viewer engine.Seat, e event) *planetv1.Event {
	out := &planetv1.Event{}
	switch e.kind {
	case evObjective:
		m := &planetv1.ObjectiveDealt{Seat: int32(e.seat)}
		if viewer == engine.Seat(e.seat) {
			m.Habitat = planetv1.Habitat(s.d.Objectives[s.planets[e.seat].objective].Habitat)
		}
		out.Kind = &planetv1.Event_ObjectiveDealt{ObjectiveDealt: m}
	case evTurn:
		i := e.turn - 1
		out.Kind = &planetv1.Event_TurnStarted{TurnStarted: &planetv1.TurnStarted{
			Turn: int32(e.turn), FirstPlayer: int32(e.seat), Display: s.tilesProto(s.stacks[i][:s.stackN[i]]),
		}}
	case evPlace:
		out.Kind = &planetv1.Event_TilePlaced{TilePlaced: &planetv1.TilePlaced{
			Seat: int32(e.seat), Place: &planetv1.Place{Tile: int32(e.a), Face: int32(e.x), Rotation: int32(e.b)},
		}}
	case evLeftover:
		out.Kind = &planetv1.Event_LeftoverStored{LeftoverStored: &planetv1.LeftoverStored{Tile: int32(e.a), Stack: int32(e.x)}}
	case evWon:
		out.Kind = &planetv1.Event_AnimalWon{AnimalWon: &planetv1.AnimalWon{
			Turn: int32(e.turn), Card: s.animalProto(e.a), Seat: int32(e.seat), Value: int32(e.b), TieBreak: int32(e.x),
		}}
	case evCarried:
		out.Kind = &planetv1.Event_AnimalCarried{AnimalCarried: &planetv1.AnimalCarried{Turn: int32(e.turn), Card: s.animalProto(e.a), ToTurn: int32(e.turn) + 1}}
	case evReturned:
		out.Kind = &planetv1.Event_AnimalReturned{AnimalReturned: &planetv1.AnimalReturned{Turn: int32(e.turn), Card: s.animalProto(e.a)}}
	case evFirst:
		out.Kind = &planetv1.Event_FirstPlayerPassed{FirstPlayerPassed: &planetv1.FirstPlayerPassed{Seat: int32(e.seat)}}
	case evMystery:
		out.Kind = &planetv1.Event_MysteryRevealed{MysteryRevealed: &planetv1.MysteryRevealed{Turn: int32(e.turn), Card: s.animalProto(e.a)}}
	case evEnd:
		m := &planetv1.GameEnded{Result: s.result.Detail}
		k := s.newBlocks()
		for seat := 0; seat < int(s.seats); seat++ {
			m.Planets = append(m.Planets, s.planetProto(&k, engine.Spectator, seat))
			m.Ranks = append(m.Ranks, int32(s.result.Ranks[seat]))
		}
		out.Kind = &planetv1.Event_GameEnded{GameEnded: m}
	}
	return out
}
