package builtin_test

import (
	"fmt"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/proto/wire"
)

// TestAct_KeepsNothingOfALentDecision holds every built-in bot of every game to the contract
// the server lends its house bots decisions under (service.Seat.Lend): once Act returns, the
// decision's memory is the server's, built again for the next decision, maybe another seat's.
// Each bot plays the opening of a seeded match twice, every seat its own instance: once as
// given, and once with each decision scribbled over, every field of every part, right after
// its answer is read. A bot that kept any part and read it later plays differently. Nor may
// a bot change a decision: in process its parts are shared, the legal envelopes with every
// match that lists them.
func TestAct_KeepsNothingOfALentDecision(t *testing.T) {
	t.Setenv(builtin.IterationsEnv, "24") // deterministic, and quick
	const plies = 120
	for _, game := range engine.Names() {
		for _, name := range builtin.Names(game) {
			t.Run(game+"/"+name, func(t *testing.T) {
				kept := playOpening(t, game, name, plies, false)
				lent := playOpening(t, game, name, plies, true)
				if i := firstDifference(kept, lent); i >= 0 {
					t.Errorf("with each decision scribbled over after its answer, ply %d went %v, not %v: the bot kept part of a decision",
						i, at(lent, i), at(kept, i))
				}
			})
		}
	}
}

// playOpening plays up to plies steps of a 4-seat (or the fewest seats') match of game with a
// built-in bot name in every seat, and returns them.
func playOpening(t *testing.T, game, name string, plies int, scribble bool) []engine.Step {
	t.Helper()
	g, _ := engine.Lookup(game)
	seats := min(4, g.Info().MaxSeats)
	st, err := engine.New(game, engine.Config{Seats: seats, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	players := make([]bots.Bot, seats)
	for i := range players {
		b, err := builtin.New(game, name, uint64(100+i))
		if err != nil {
			t.Fatal(err)
		}
		players[i] = b
	}
	var log []engine.Step
	var toAct []engine.Seat
	var legal []engine.Action
	for len(log) < plies && !st.Terminal() {
		toAct = st.ToAct(toAct[:0])
		seat := toAct[0]
		legal = st.Legal(seat, legal[:0])
		// A copy of its own, so that the scribbling reaches nothing the engine or the wire
		// package shares between decisions (they are read-only, and stay so).
		d := proto.CloneOf(wire.Decision(st, seat, legal, int64(len(log))))
		d.DecisionId = fmt.Sprint(len(log))
		before := proto.CloneOf(d)
		a, _, err := wire.Answer(st, legal, players[seat].Act(d))
		if !proto.Equal(d, before) {
			// In process its parts are shared: the legal envelopes with every match.
			t.Fatalf("seat %d at ply %d: the bot changed the decision it was given", seat, len(log))
		}
		if scribble {
			scribbleOver(d.ProtoReflect())
		}
		if err == nil {
			err = st.Apply(seat, a)
		}
		if err != nil {
			t.Fatalf("seat %d at ply %d: %v", seat, len(log), err)
		}
		log = append(log, engine.Step{Seat: seat, Action: a})
	}
	return log
}

// scribbleOver changes every set field of m in place, through every nested message and list.
func scribbleOver(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				if fd.Message() != nil {
					scribbleOver(l.Get(i).Message())
				} else {
					l.Set(i, changed(fd, l.Get(i)))
				}
			}
		case fd.IsMap():
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				if fd.MapValue().Message() != nil {
					scribbleOver(mv.Message())
				} else {
					v.Map().Set(k, changed(fd.MapValue(), mv))
				}
				return true
			})
		case fd.Message() != nil:
			scribbleOver(v.Message())
		default:
			m.Set(fd, changed(fd, v))
		}
		return true
	})
}

// changed is a value of fd's kind other than v.
func changed(fd protoreflect.FieldDescriptor, v protoreflect.Value) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(!v.Bool())
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(v.Enum() + 1)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(v.Int()) ^ 0x55)
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(v.Int() ^ 0x55)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(v.Uint()) ^ 0x55)
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(v.Uint() ^ 0x55)
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(float32(v.Float()) + 17)
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(v.Float() + 17)
	case protoreflect.StringKind:
		return protoreflect.ValueOfString("scribbled " + v.String())
	case protoreflect.BytesKind:
		b := slices.Clone(v.Bytes())
		for i := range b {
			b[i] ^= 0x55
		}
		return protoreflect.ValueOfBytes(b)
	}
	return v
}

// firstDifference is the first ply at which a and b differ, or -1.
func firstDifference(a, b []engine.Step) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

func at(log []engine.Step, i int) any {
	if i < len(log) {
		return log[i]
	}
	return "the end"
}
