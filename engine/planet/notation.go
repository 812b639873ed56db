package planet

import (
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
)

// kindPlace is the one action kind: take a displayed tile and place it on a free face.
const kindPlace uint16 = 1

// PlaceAction is the action placing tile on face with the given rotation.
func PlaceAction(tile, face, rotation int) engine.Action {
	a := engine.Action{Kind: kindPlace}
	a.Arg[0], a.Arg[1], a.Arg[2] = int16(tile), int16(face), int16(rotation)
	return a
}

// Placement reads a placement action back: its tile, face and rotation.
func Placement(a engine.Action) (tile, face, rotation int, ok bool) {
	return int(a.Arg[0]), int(a.Arg[1]), int(a.Arg[2]), a.Kind == kindPlace
}

// FormatAction writes "tile 17 face 3 rot 2".
func (s *state) FormatAction(a engine.Action) string { return FormatAction(a) }

// FormatAction is the canonical notation of a.
func FormatAction(a engine.Action) string {
	if a.Kind != kindPlace {
		return fmt.Sprintf("action kind %d", a.Kind)
	}
	return "tile " + strconv.Itoa(int(a.Arg[0])) + " face " + strconv.Itoa(int(a.Arg[1])) + " rot " + strconv.Itoa(int(a.Arg[2]))
}

func (s *state) ParseAction(text string) (engine.Action, error) { return ParseAction(text) }

// ParseAction reads "tile T face F rot R". It checks the syntax only; Apply judges legality.
func ParseAction(text string) (engine.Action, error) {
	f := strings.Fields(text)
	if len(f) != 6 || f[0] != "tile" || f[2] != "face" || f[4] != "rot" {
		return engine.Action{}, fmt.Errorf("%w: %q is not \"tile T face F rot R\"", engine.ErrBadNotation, text)
	}
	var n [3]int
	for i := range n {
		v, err := strconv.ParseInt(f[1+2*i], 10, 16)
		if err != nil {
			return engine.Action{}, fmt.Errorf("%w: %q: %q is not a number", engine.ErrBadNotation, text, f[1+2*i])
		}
		n[i] = int(v)
	}
	return PlaceAction(n[0], n[1], n[2]), nil
}

func (s *state) ActionProto(a engine.Action) proto.Message { return ActionProto(a) }

// ActionProto is a as the typed Action message.
func ActionProto(a engine.Action) *planetv1.Action {
	tile, face, rot, _ := Placement(a)
	return &planetv1.Action{Kind: &planetv1.Action_Place{Place: &planetv1.Place{Tile: int32(tile), Face: int32(face), Rotation: int32(rot)}}}
}

func (s *state) ActionFromProto(m proto.Message) (engine.Action, error) { return ActionFromProto(m) }

// ActionFromProto reads a typed Action message; anything malformed wraps ErrIllegalAction.
func ActionFromProto(m proto.Message) (engine.Action, error) {
	pa, ok := m.(*planetv1.Action)
	if !ok || pa == nil {
		return engine.Action{}, fmt.Errorf("%w: want a planet Action message, got %T", engine.ErrIllegalAction, m)
	}
	p := pa.GetPlace()
	if p == nil {
		return engine.Action{}, fmt.Errorf("%w: the action has no placement", engine.ErrIllegalAction)
	}
	for _, v := range []int32{p.Tile, p.Face, p.Rotation} {
		if v < -1<<15 || v >= 1<<15 {
			return engine.Action{}, fmt.Errorf("%w: placement field %d out of range", engine.ErrIllegalAction, v)
		}
	}
	return PlaceAction(int(p.Tile), int(p.Face), int(p.Rotation)), nil
}
