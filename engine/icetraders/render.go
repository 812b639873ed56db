package icetraders

import (
	"fmt"
	"slices"
	"strconv"
	"unsafe"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// Render is seat's observation as text. It is drawn from Observe(seat) alone, so it can show
// nothing the observation hides.
func (s *State) Render(seat engine.Seat) string { return RenderObservation(s.observe(seat, false)) }

// RenderObservation draws an observation as text, for people and language-model bots.
func RenderObservation(o *pb.Observation) string {
	// One allocation for most texts: a text is drawn for every decision, and growing the
	// buffer step by step was most of its allocations.
	b := AppendObservation(make([]byte, 0, textSize(o)), o)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is nobody else's
}

// AppendObservation appends RenderObservation(o) to dst.
func AppendObservation(dst []byte, o *pb.Observation) []byte {
	// The text stays on the stack (the rare lines use fmt.Appendf, not fmt.Fprintf to it).
	b := text{slices.Grow(dst, textSize(o))}
	// The lines drawn for every decision avoid fmt: its cost was a third of the text's.
	b.WriteString("IceTraders, ")
	writeInt(&b, o.GetSeats())
	b.WriteString(" seats, viewed by ")
	if o.GetSeat() >= 0 {
		b.WriteString("seat ")
		writeInt(&b, o.GetSeat())
	} else {
		b.WriteString("spectator")
	}
	b.WriteByte('\n')
	switch o.GetPhase() {
	case pb.Phase_PHASE_ALIGNMENT:
		b.WriteString("Phase: secret alignments; waiting for ")
		writeSeats(&b, o.GetToAct())
		b.WriteByte('\n')
	case pb.Phase_PHASE_OPENING_PICKS:
		b.WriteString("Phase: secret opening picks; waiting for ")
		writeSeats(&b, o.GetToAct())
		b.WriteByte('\n')
	case pb.Phase_PHASE_REPICKS:
		r := o.GetPendingRepick()
		b.Write(fmt.Appendf(nil, "Phase: repicks; seat %d chooses its %s pick again from the stash\n", r.GetSeat(), ordinal(r.GetSlot())))
	case pb.Phase_PHASE_PLAY:
		b.WriteString("Turn ")
		writeInt(&b, o.GetTurn()+1)
		b.WriteString(" (cap ")
		writeInt(&b, o.GetTurnCap())
		b.WriteString(" per player), seat ")
		writeInt(&b, o.GetCurrentSeat())
		b.WriteString(" to act; first player seat ")
		writeInt(&b, o.GetFirstSeat())
		b.WriteString("; passes in a row ")
		writeInt(&b, o.GetConsecutivePasses())
		b.WriteByte('\n')
	case pb.Phase_PHASE_OVER:
		g := o.GetGameOver()
		b.Write(fmt.Appendf(nil, "Game over: %s\n", g.GetDetail()))
	}
	b.WriteString("Stash:")
	var num [12]byte
	for i, sc := range o.GetStash() {
		if i%3 == 0 {
			b.WriteByte(' ')
			b.WriteString(colorWord(sc.GetPiece().GetColor()))
		}
		b.WriteByte(' ')
		if z := sc.GetPiece().GetSize(); z >= pb.Size_SIZE_SMALL && z <= pb.Size_SIZE_LARGE {
			b.WriteByte("SML"[z-1])
		}
		b.Write(strconv.AppendInt(num[:0], int64(sc.GetCount()), 10))
		if i%3 == 2 && i < len(o.GetStash())-1 {
			b.WriteString(" |")
		}
	}
	b.WriteString("\n")
	if len(o.GetSystems())+len(o.GetHyperspaces()) > 0 {
		b.WriteString("Systems:\n")
	}
	for _, sys := range o.GetSystems() {
		b.WriteString("  sys")
		b.Write(strconv.AppendInt(num[:0], int64(sys.GetId()), 10))
		b.WriteByte(' ')
		b.WriteString(pieceWords(sys.GetMarker()))
		if sys.GetSecondMarker() != nil {
			b.WriteString(" + ")
			b.WriteString(pieceWords(sys.GetSecondMarker()))
			b.WriteString(" (dual)")
		}
		b.WriteString(", connected to ")
		writeIDs(&b, "sys", sys.GetConnectedIds())
		b.WriteByte('\n')
		writeShips(&b, sys.GetShips())
	}
	for _, h := range o.GetHyperspaces() {
		b.WriteString("  sys")
		writeInt(&b, h.GetId())
		b.WriteString(" hyperspace (no system power; moves out to anywhere)\n")
		writeShips(&b, h.GetShips())
	}
	b.WriteString("Players:\n")
	for _, p := range o.GetPlayers() {
		b.WriteString("  seat ")
		writeInt(&b, p.GetSeat())
		if p.GetSeat() == o.GetSeat() {
			b.WriteString(" (you)")
		}
		switch p.GetAlignment() {
		case pb.Alignment_ALIGNMENT_GOOD:
			b.WriteString(": Good")
		case pb.Alignment_ALIGNMENT_EVIL:
			b.WriteString(": Evil")
			if p.GetTurnedEvil() {
				b.WriteString(" (turned)")
			}
		default:
			b.WriteString(": alignment unknown")
		}
		if p.GetFirstPick() != nil {
			b.WriteString("; picks ")
			b.WriteString(pieceWords(p.GetFirstPick()))
			b.WriteString(", ")
			b.WriteString(pieceWords(p.GetSecondPick()))
		}
		if p.GetEliminated() {
			if p.GetEliminatedBy() >= 0 {
				b.WriteString("; ELIMINATED by seat ")
				writeInt(&b, p.GetEliminatedBy())
			} else {
				b.WriteString("; ELIMINATED (self)")
			}
		} else if p.GetPlacedFirstShip() {
			b.WriteString("; ")
			writePlural(&b, p.GetShips(), "ship")
			b.WriteString(", ")
			writeInt(&b, p.GetLargeShips())
			b.WriteString(" large")
			if p.GetEverLarge() {
				b.WriteString(" (out if no large ship is left)")
			} else {
				b.WriteString(" (never large: out if no ship is left)")
			}
		}
		b.WriteString("; ")
		writePlural(&b, p.GetTurnsTaken(), "turn")
		b.WriteByte('\n')
	}
	if ps := o.GetPendingSacrifice(); ps != nil {
		b.Write(fmt.Appendf(nil, "Sacrifice of a %s: %d of %d uses of its power left, for your ships of other colors\n",
			pieceWords(ps.GetSacrificed()), ps.GetUsesLeft(), ps.GetUsesTotal()))
	}
	if pc := o.GetPendingConcentration(); pc != nil {
		what := "Enterprise: choose a second marker smaller than the main one, or decline"
		if pc.GetKind() == pb.ConcentrationKind_CONCENTRATION_KIND_REVOLT {
			what = "Revolt: choose another ship there to take, or decline"
		}
		b.Write(fmt.Appendf(nil, "Concentration at sys%d (catalyst s%d): %s\n", pc.GetSystemId(), pc.GetCatalystShipId(), what))
	}
	return b.b
}

// text is a strings.Builder over a buffer of the caller's (AppendObservation).
type text struct{ b []byte }

func (t *text) WriteString(s string) { t.b = append(t.b, s...) }

func (t *text) WriteByte(c byte) error {
	t.b = append(t.b, c)
	return nil
}

func (t *text) Write(p []byte) { t.b = append(t.b, p...) }

func writeShips(b *text, ships []*pb.Ship) {
	if len(ships) == 0 {
		b.WriteString("    (no ships)\n")
		return
	}
	var num [12]byte
	for _, x := range ships {
		b.WriteString("    s")
		b.Write(strconv.AppendInt(num[:0], int64(x.GetId()), 10))
		b.WriteByte(' ')
		b.WriteString(pieceWords(x.GetPiece()))
		if x.GetOwner() >= 0 {
			b.WriteString(", seat ")
			b.Write(strconv.AppendInt(num[:0], int64(x.GetOwner()), 10))
		} else {
			b.WriteString(", nobody")
		}
		b.WriteByte('\n')
	}
}

func colorWord(c pb.Color) string {
	if c >= pb.Color_COLOR_RED && c <= pb.Color_COLOR_BLUE {
		return colorNames[c-1]
	}
	return "?"
}

// pieceWordsTable holds "red small" and the rest, built once: rendering names pieces often.
var pieceWordsTable = func() (t [5][4]string) {
	for c := range t {
		for z := range t[c] {
			size := "?"
			if z >= int(pb.Size_SIZE_SMALL) {
				size = sizeNames[z]
			}
			t[c][z] = colorWord(pb.Color(c)) + " " + size
		}
	}
	return t
}()

func pieceWords(p *pb.Piece) string {
	if p == nil {
		return "none"
	}
	c, z := p.GetColor(), p.GetSize()
	if c < 0 || int(c) >= len(pieceWordsTable) || z < 0 || int(z) >= len(pieceWordsTable[0]) {
		return colorWord(c) + " ?"
	}
	return pieceWordsTable[c][z]
}

// writeSeats writes seats as "seat 0, seat 2".
func writeSeats(b *text, seats []int32) {
	for i, s := range seats {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("seat ")
		writeInt(b, s)
	}
}

// writeIDs writes ids as "sys1 sys4", or "nothing"; it runs for every system on every
// decision, so it avoids fmt.
func writeIDs(b *text, prefix string, ids []int32) {
	if len(ids) == 0 {
		b.WriteString("nothing")
		return
	}
	var num [12]byte
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(prefix)
		b.Write(strconv.AppendInt(num[:0], int64(id), 10))
	}
}

func ordinal(slot int32) string {
	if slot == 1 {
		return "first"
	}
	return "second"
}

// writePlural writes "1 ship" or "3 ships".
func writePlural(b *text, n int32, word string) {
	writeInt(b, n)
	b.WriteByte(' ')
	b.WriteString(word)
	if n != 1 {
		b.WriteByte('s')
	}
}

func writeInt(b *text, n int32) {
	var num [12]byte
	b.Write(strconv.AppendInt(num[:0], int64(n), 10))
}

// textSize is about the length of o's text, so that it is drawn in one allocation.
func textSize(o *pb.Observation) int {
	n := 256 + 96*len(o.GetPlayers())
	for _, sys := range o.GetSystems() {
		n += 64 + 8*len(sys.GetConnectedIds()) + 32*len(sys.GetShips())
	}
	for _, h := range o.GetHyperspaces() {
		n += 80 + 32*len(h.GetShips())
	}
	return n
}

// RenderObservation draws an observation this state produced; see engine.ObservationRenderer.
func (s *State) RenderObservation(obs proto.Message) string {
	return RenderObservation(obs.(*pb.Observation))
}

// AppendObservation draws an observation this state produced; see engine.ObservationAppender.
func (s *State) AppendObservation(dst []byte, obs proto.Message) []byte {
	return AppendObservation(dst, obs.(*pb.Observation))
}

var (
	_ engine.ObservationRenderer = (*State)(nil)
	_ engine.ObservationAppender = (*State)(nil)
)
