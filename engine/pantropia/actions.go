package pantropia

import "github.com/orrery/orrery/engine"

// Action kinds. Arguments not named are zero in a well-formed action.
const (
	kindNone      uint16 = iota
	KindSettle           // Arg0 intersection, Arg1 strut
	KindReact            // Arg0 1 = play a Luddite, 0 = pass
	KindTerraform        // Arg0 < Arg1: the two dice exchanged
	KindPantropy         // Arg0 slot of the rolled color, Arg1 the other slot; -1, -1: none
	KindEarth            // Arg0 color given, Arg1 color taken
	KindOffer            // Arg0 to, Arg1..6 give, Arg7..12 take, Arg13 offerCheck
	KindReply            // Arg0 1 = accept, 0 = decline
	KindRing             // Arg0 joint
	KindHabitat          // Arg0 intersection
	KindArcology         // Arg0 intersection
	KindShuttle          // Arg0 intersection
	KindBuy              //
	KindPlay             // Arg0 card; Shuttle: Arg1 owner, Arg2 intersection; Aquifer: Arg1 color; Comet: Arg1 slot, Arg2 color
	KindRemove           // Arg0 joint, -1 to remove nothing
	KindAbandon          // Arg0 intersection
	KindDiscard          // Arg0 color, Arg1 count
	KindEnd              //
	numKinds
)

func act(kind uint16, args ...int) engine.Action {
	a := engine.Action{Kind: kind}
	for i, v := range args {
		a.Arg[i] = int16(v)
	}
	return a
}

// Constructors, for tests and bots.

func Settle(inter, strut int) engine.Action { return act(KindSettle, inter, strut) }
func React(play bool) engine.Action         { return act(KindReact, b2i(play)) }
func Terraform(a, b int) engine.Action      { return act(KindTerraform, min(a, b), max(a, b)) }
func Pantropy(from, to int) engine.Action   { return act(KindPantropy, from, to) }
func PantropyNone() engine.Action           { return act(KindPantropy, -1, -1) }
func Earth(give, take Color) engine.Action  { return act(KindEarth, int(give), int(take)) }
func Reply(accept bool) engine.Action       { return act(KindReply, b2i(accept)) }
func Ring(joint int) engine.Action          { return act(KindRing, joint) }
func Habitat(inter int) engine.Action       { return act(KindHabitat, inter) }
func Arcology(inter int) engine.Action      { return act(KindArcology, inter) }
func BuildShuttle(inter int) engine.Action  { return act(KindShuttle, inter) }
func Buy() engine.Action                    { return act(KindBuy) }
func Remove(joint int) engine.Action        { return act(KindRemove, joint) }
func Abandon(inter int) engine.Action       { return act(KindAbandon, inter) }
func Discard(c Color, n int) engine.Action  { return act(KindDiscard, int(c), n) }
func End() engine.Action                    { return act(KindEnd) }
func Play(card Card) engine.Action          { return act(KindPlay, int(card)) }
func PlayShuttle(owner, inter int) engine.Action {
	return act(KindPlay, int(ShuttleCard), owner, inter)
}
func PlayAquifer(c Color) engine.Action         { return act(KindPlay, int(Aquifer), int(c)) }
func PlayComet(slot int, c Color) engine.Action { return act(KindPlay, int(GuidedComet), slot, int(c)) }

// Offer is the active seat's offer to seat to: it gives give and takes take.
func Offer(to int, give, take [NumColors]int16) engine.Action {
	a := engine.Action{Kind: KindOffer}
	a.Arg[0] = int16(to)
	copy(a.Arg[1:7], give[:])
	copy(a.Arg[7:13], take[:])
	a.Arg[13] = offerCheck(a)
	return a
}

// offerCheck is a checksum over an offer's fields. Offers are open-ended, so a corrupted
// offer (one field changed) would otherwise read as another valid offer; this makes it
// malformed instead.
func offerCheck(a engine.Action) int16 {
	sum := int16(1)
	for i := 0; i < 13; i++ {
		sum += a.Arg[i]
	}
	return sum
}

// OfferParts reads an offer action.
func OfferParts(a engine.Action) (to int, give, take [NumColors]int16) {
	copy(give[:], a.Arg[1:7])
	copy(take[:], a.Arg[7:13])
	return int(a.Arg[0]), give, take
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// argsUsed is how many leading arguments each kind uses; the rest must be zero.
func argsUsed(a engine.Action) int {
	switch a.Kind {
	case KindSettle, KindTerraform, KindPantropy, KindEarth, KindDiscard:
		return 2
	case KindReact, KindReply, KindRing, KindHabitat, KindArcology, KindShuttle, KindRemove, KindAbandon:
		return 1
	case KindOffer:
		return 14
	case KindPlay:
		switch Card(a.Arg[0]) {
		case ShuttleCard, GuidedComet:
			return 3
		case Aquifer:
			return 2
		}
		return 1
	}
	return 0
}
