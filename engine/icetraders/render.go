package icetraders

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// Render is seat's observation as text. It is drawn from Observe(seat) alone, so it can show
// nothing the observation hides.
func (s *State) Render(seat engine.Seat) string { return RenderObservation(s.observe(seat, false)) }

// RenderObservation draws an observation as text, for people and language-model bots.
func RenderObservation(o *pb.Observation) string {
	var b strings.Builder
	who := "spectator"
	if o.GetSeat() >= 0 {
		who = fmt.Sprintf("seat %d", o.GetSeat())
	}
	fmt.Fprintf(&b, "IceTraders, %d seats, viewed by %s\n", o.GetSeats(), who)
	switch o.GetPhase() {
	case pb.Phase_PHASE_ALIGNMENT:
		fmt.Fprintf(&b, "Phase: secret alignments; waiting for %s\n", seatList(o.GetToAct()))
	case pb.Phase_PHASE_OPENING_PICKS:
		fmt.Fprintf(&b, "Phase: secret opening picks; waiting for %s\n", seatList(o.GetToAct()))
	case pb.Phase_PHASE_REPICKS:
		r := o.GetPendingRepick()
		fmt.Fprintf(&b, "Phase: repicks; seat %d chooses its %s pick again from the stash\n", r.GetSeat(), ordinal(r.GetSlot()))
	case pb.Phase_PHASE_PLAY:
		fmt.Fprintf(&b, "Turn %d (cap %d per player), seat %d to act; first player seat %d; passes in a row %d\n",
			o.GetTurn()+1, o.GetTurnCap(), o.GetCurrentSeat(), o.GetFirstSeat(), o.GetConsecutivePasses())
	case pb.Phase_PHASE_OVER:
		g := o.GetGameOver()
		fmt.Fprintf(&b, "Game over: %s\n", g.GetDetail())
	}
	b.WriteString("Stash:")
	for i, sc := range o.GetStash() {
		if i%3 == 0 {
			fmt.Fprintf(&b, " %s", colorWord(sc.GetPiece().GetColor()))
		}
		fmt.Fprintf(&b, " %c%d", "SML"[sc.GetPiece().GetSize()-1], sc.GetCount())
		if i%3 == 2 && i < len(o.GetStash())-1 {
			b.WriteString(" |")
		}
	}
	b.WriteString("\n")
	if len(o.GetSystems())+len(o.GetHyperspaces()) > 0 {
		b.WriteString("Systems:\n")
	}
	for _, sys := range o.GetSystems() {
		fmt.Fprintf(&b, "  sys%d %s", sys.GetId(), pieceWords(sys.GetMarker()))
		if sys.GetSecondMarker() != nil {
			fmt.Fprintf(&b, " + %s (dual)", pieceWords(sys.GetSecondMarker()))
		}
		fmt.Fprintf(&b, ", connected to %s\n", idList("sys", sys.GetConnectedIds()))
		writeShips(&b, sys.GetShips())
	}
	for _, h := range o.GetHyperspaces() {
		fmt.Fprintf(&b, "  sys%d hyperspace (no system power; moves out to anywhere)\n", h.GetId())
		writeShips(&b, h.GetShips())
	}
	b.WriteString("Players:\n")
	for _, p := range o.GetPlayers() {
		fmt.Fprintf(&b, "  seat %d", p.GetSeat())
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
			fmt.Fprintf(&b, "; picks %s, %s", pieceWords(p.GetFirstPick()), pieceWords(p.GetSecondPick()))
		}
		if p.GetEliminated() {
			if p.GetEliminatedBy() >= 0 {
				fmt.Fprintf(&b, "; ELIMINATED by seat %d", p.GetEliminatedBy())
			} else {
				b.WriteString("; ELIMINATED (self)")
			}
		} else if p.GetPlacedFirstShip() {
			fmt.Fprintf(&b, "; %s, %d large", plural(p.GetShips(), "ship"), p.GetLargeShips())
			if p.GetEverLarge() {
				b.WriteString(" (out if no large ship is left)")
			} else {
				b.WriteString(" (never large: out if no ship is left)")
			}
		}
		fmt.Fprintf(&b, "; %s\n", plural(p.GetTurnsTaken(), "turn"))
	}
	if ps := o.GetPendingSacrifice(); ps != nil {
		fmt.Fprintf(&b, "Sacrifice of a %s: %d of %d uses of its power left, for your ships of other colors\n",
			pieceWords(ps.GetSacrificed()), ps.GetUsesLeft(), ps.GetUsesTotal())
	}
	if pc := o.GetPendingConcentration(); pc != nil {
		what := "Enterprise: choose a second marker smaller than the main one, or decline"
		if pc.GetKind() == pb.ConcentrationKind_CONCENTRATION_KIND_REVOLT {
			what = "Revolt: choose another ship there to take, or decline"
		}
		fmt.Fprintf(&b, "Concentration at sys%d (catalyst s%d): %s\n", pc.GetSystemId(), pc.GetCatalystShipId(), what)
	}
	return b.String()
}

func writeShips(b *strings.Builder, ships []*pb.Ship) {
	if len(ships) == 0 {
		b.WriteString("    (no ships)\n")
		return
	}
	for _, x := range ships {
		owner := "nobody"
		if x.GetOwner() >= 0 {
			owner = fmt.Sprintf("seat %d", x.GetOwner())
		}
		fmt.Fprintf(b, "    s%d %s, %s\n", x.GetId(), pieceWords(x.GetPiece()), owner)
	}
}

func colorWord(c pb.Color) string {
	if c >= pb.Color_COLOR_RED && c <= pb.Color_COLOR_BLUE {
		return colorNames[c-1]
	}
	return "?"
}

func pieceWords(p *pb.Piece) string {
	if p == nil {
		return "none"
	}
	z := "?"
	if p.GetSize() >= pb.Size_SIZE_SMALL && p.GetSize() <= pb.Size_SIZE_LARGE {
		z = sizeNames[p.GetSize()]
	}
	return colorWord(p.GetColor()) + " " + z
}

func seatList(seats []int32) string {
	parts := make([]string, len(seats))
	for i, s := range seats {
		parts[i] = fmt.Sprintf("seat %d", s)
	}
	return strings.Join(parts, ", ")
}

func idList(prefix string, ids []int32) string {
	if len(ids) == 0 {
		return "nothing"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("%s%d", prefix, id)
	}
	return strings.Join(parts, " ")
}

func ordinal(slot int32) string {
	if slot == 1 {
		return "first"
	}
	return "second"
}

func plural(n int32, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// RenderObservation draws an observation this state produced; see engine.ObservationRenderer.
func (s *State) RenderObservation(obs proto.Message) string {
	return RenderObservation(obs.(*pb.Observation))
}

var _ engine.ObservationRenderer = (*State)(nil)
