package fccatan

import "github.com/orrery/orrery/engine"

// Action kinds. Kind 0 is never legal.
const (
	kindPass       uint16 = iota + 1 // no offer, no acceptance, no purchase
	kindSetup                        // Arg[0] start hoop, Arg[1] knight bitmask
	kindDeploy                       // Arg[i] hoop of avatar i
	kindIntents                      // Arg[3i:3i+3] avatar i's x, y, flags
	kindOffer                        // Arg[0] to seat, Arg[1:5] give, Arg[5:9] want
	kindReply                        // Arg[0] bitmask of the offering seats accepted
	kindBuy                          // Arg[0] n, then n pairs (purchase kind, param)
	kindPlenty                       // Arg[0:4] balls taken
	kindMonopoly                     // Arg[0] resource
	kindDiscard                      // Arg[0:4] balls discarded
	kindBarbarians                   // Arg[0] hoop
	kindLast
)

// Intent flags, one int16 per avatar. Bits 8-12 name a tag target (0: the nearest, else
// 1+seat*4+avatar), bits 13-14 the teammate a ball is thrown to.
const (
	flagTo    = 1 << 0 // x, y is a target point, cm
	flagVel   = 1 << 1 // x, y is a velocity, cm/s
	flagPick  = 1 << 2
	flagPlace = 1 << 3
	flagTag   = 1 << 4
	flagThrow = 1 << 5

	tagShift   = 8
	tagMask    = 0x1f << tagShift
	throwShift = 13
	throwMask  = 0x3 << throwShift
	knownFlags = flagTo | flagVel | flagPick | flagPlace | flagTag | flagThrow | tagMask | throwMask
)

// maxItems is the most purchases one declaration holds.
const maxItems = 7

// Intent is one avatar's standing order as it is packed in an Action.
type Intent struct {
	X, Y  int16 // target (cm) with flagTo, velocity (cm/s) with flagVel, else 0
	Flags int16
}

// Stay is the intent to stand still.
func Stay() Intent { return Intent{} }

// To runs toward (x, y).
func To(x, y int16) Intent { return Intent{X: x, Y: y, Flags: flagTo} }

// Velocity runs at (vx, vy) cm/s.
func Velocity(vx, vy int16) Intent { return Intent{X: vx, Y: vy, Flags: flagVel} }

// PickUp adds the order to pick up a ball when in reach of a pile.
func (i Intent) PickUp() Intent { i.Flags |= flagPick; return i }

// Place adds the order to place a carried settlement marker.
func (i Intent) Place() Intent { i.Flags |= flagPlace; return i }

// Tag adds a knight's order to tag the nearest opponent in reach.
func (i Intent) Tag() Intent { i.Flags |= flagTag; return i }

// TagPlayer adds a knight's order to tag one opponent when in reach.
func (i Intent) TagPlayer(seat, avatar int) Intent {
	i.Flags = i.Flags&^tagMask | flagTag | int16((1+seat*maxAvatars+avatar)<<tagShift)
	return i
}

// Throw adds the order to throw the carried ball to teammate avatar (published ruleset).
func (i Intent) Throw(avatar int) Intent {
	i.Flags = i.Flags&^throwMask | flagThrow | int16(avatar<<throwShift)
	return i
}

func (i Intent) has(f int16) bool { return i.Flags&f != 0 }

// tagTarget returns the named tag target, ok false for "the nearest".
func (i Intent) tagTarget() (seat, avatar int, ok bool) {
	code := int(i.Flags&tagMask) >> tagShift
	if code == 0 {
		return 0, 0, false
	}
	return (code - 1) / maxAvatars, (code - 1) % maxAvatars, true
}

func (i Intent) throwTo() int { return int(uint16(i.Flags)&throwMask) >> throwShift }

// IntentsAction packs a team's intents, one per avatar.
func IntentsAction(in ...Intent) engine.Action {
	a := engine.Action{Kind: kindIntents}
	for k, x := range in {
		if k >= maxAvatars {
			break
		}
		a.Arg[3*k], a.Arg[3*k+1], a.Arg[3*k+2] = x.X, x.Y, x.Flags
	}
	return a
}

// intentOf is avatar k's intent in a, read in place: an action passed by value is copied whole
// wherever its arguments are sliced, on every read.
func intentOf(a *engine.Action, k int) Intent {
	in := (*[3]int16)(a.Arg[3*k:]) // one bounds check for the three
	return Intent{X: in[0], Y: in[1], Flags: in[2]}
}

// PassAction makes no offer, accepts nothing, buys nothing.
func PassAction() engine.Action { return engine.Action{Kind: kindPass} }

// SetupAction takes a start hoop and names the knights (bit i: avatar i).
func SetupAction(hoop int, knights uint8) engine.Action {
	return engine.Action{Kind: kindSetup, Arg: [15]int16{int16(hoop), int16(knights)}}
}

// DeployAction places avatar i in hoops[i].
func DeployAction(hoops ...int) engine.Action {
	a := engine.Action{Kind: kindDeploy}
	for i, h := range hoops {
		a.Arg[i] = int16(h)
	}
	return a
}

// OfferAction offers give for want to seat to.
func OfferAction(to int, give, want [numRes]int) engine.Action {
	a := engine.Action{Kind: kindOffer}
	a.Arg[0] = int16(to)
	for r := 0; r < numRes; r++ {
		a.Arg[1+r], a.Arg[5+r] = int16(give[r]), int16(want[r])
	}
	return a
}

// ReplyAction accepts the offers of the seats in mask (bit s: seat s).
func ReplyAction(mask uint8) engine.Action {
	return engine.Action{Kind: kindReply, Arg: [15]int16{int16(mask)}}
}

// Item is one purchase of a declaration.
type Item struct {
	Kind  int8  // buySettlement..buyHandover
	Param int16 // settlement, knight: avatar; city: hoop (+256 to pay ore); handover: from*4+to
}

// Purchase items.
func SettlementItem(avatar int) Item      { return Item{buySettlement, int16(avatar)} }
func CityItem(hoop int, payOre bool) Item { return Item{buyCity, int16(hoop) | b2i16(payOre)<<8} }
func KnightItem(avatar int) Item          { return Item{buyKnight, int16(avatar)} }
func CardItem() Item                      { return Item{buyCard, 0} }
func HandoverItem(from, to int) Item      { return Item{buyHandover, int16(from*maxAvatars + to)} }

func b2i16(b bool) int16 {
	if b {
		return 1
	}
	return 0
}

// BuyAction declares purchases in order.
func BuyAction(items ...Item) engine.Action {
	a := engine.Action{Kind: kindBuy}
	a.Arg[0] = int16(len(items))
	for k, it := range items {
		if k >= maxItems {
			break
		}
		a.Arg[1+2*k], a.Arg[2+2*k] = int16(it.Kind), it.Param
	}
	return a
}

func itemOf(a engine.Action, k int) Item { return Item{int8(a.Arg[1+2*k]), a.Arg[2+2*k]} }

func countsAction(kind uint16, n [numRes]int) engine.Action {
	a := engine.Action{Kind: kind}
	for r := 0; r < numRes; r++ {
		a.Arg[r] = int16(n[r])
	}
	return a
}

// PlentyAction takes balls from the piles (Year of Plenty).
func PlentyAction(take [numRes]int) engine.Action { return countsAction(kindPlenty, take) }

// DiscardAction discards balls (Robber).
func DiscardAction(d [numRes]int) engine.Action { return countsAction(kindDiscard, d) }

// MonopolyAction names a resource.
func MonopolyAction(r Resource) engine.Action {
	return engine.Action{Kind: kindMonopoly, Arg: [15]int16{int16(r)}}
}

// BarbariansAction names the hoop hit.
func BarbariansAction(hoop int) engine.Action {
	return engine.Action{Kind: kindBarbarians, Arg: [15]int16{int16(hoop)}}
}

// argsZeroFrom reports whether a.Arg[i:] are all zero.
func argsZeroFrom(a engine.Action, i int) bool {
	for ; i < len(a.Arg); i++ {
		if a.Arg[i] != 0 {
			return false
		}
	}
	return true
}
