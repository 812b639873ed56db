package icetraders

import "github.com/orrery/orrery/engine"

// Action kinds. The argument layout of each is given beside it; arguments not named are zero.
// Ships and locations (systems and hyperspaces) are named by their stable ids.
const (
	kindNone         uint16 = iota
	KindAlign               // Arg0 alignment (1 good, 2 evil)
	KindPicks               // Arg0,1 first pick color,size; Arg2,3 second pick color,size
	KindRepick              // Arg0 color, Arg1 size
	KindPlace               // Arg0 color (the piece is small), Arg1 system
	KindMove                // Arg0 ship, Arg1 destination
	KindTrade               // Arg0 ship, Arg1 color, Arg2 size
	KindGrow                // Arg0 ship
	KindAdd                 // Arg0 ship, Arg1 size of the new ship, Arg2 0 or 1+system (green_add=any)
	KindAttack              // Arg0 ship, Arg1 target ship, Arg2 0 or 1+color reduced to (reduce_color=choose)
	KindDiscover            // Arg0 ship
	KindSacrifice           // Arg0 ship
	KindResearch            // Arg0,1,2 ships (ascending), Arg3 color, Arg4 size, Arg5 0 or 1+system (rnd_where=any)
	KindPass                //
	KindEndSacrifice        //
	KindEnterprise          // Arg0 color, Arg1 size of the second marker
	KindRevolt              // Arg0 ship
	KindDecline             //
	numKinds_
)

// argCount is how many leading arguments each kind uses; the rest must be zero.
var argCount = [numKinds_]int{
	KindAlign: 1, KindPicks: 4, KindRepick: 2, KindPlace: 2, KindMove: 2, KindTrade: 3,
	KindGrow: 1, KindAdd: 3, KindAttack: 3, KindDiscover: 1, KindSacrifice: 1, KindResearch: 6,
	KindEnterprise: 2, KindRevolt: 1,
}

// isPower reports whether k is a use of one color's power.
func isPower(k uint16) bool { return k >= KindMove && k <= KindAttack }

// powerColor is the color whose power action kind k uses.
func powerColor(k uint16) Color {
	switch k {
	case KindMove:
		return Yellow
	case KindTrade:
		return Blue
	case KindGrow, KindAdd:
		return Green
	}
	return Red
}

// The constructors below spell out their action's array: a helper taking the arguments as a
// slice cost, in a loop, as much as the rest of listing a legal action (Legal builds hundreds
// a game).

// ChooseAlignment is the secret choice of Good or Evil.
func ChooseAlignment(al Alignment) engine.Action {
	return engine.Action{Kind: KindAlign, Arg: [15]int16{int16(al)}}
}

// ChoosePicks is the secret choice of the two opening systems.
func ChoosePicks(first, second Piece) engine.Action {
	return engine.Action{Kind: KindPicks, Arg: [15]int16{int16(first.Color), int16(first.Size), int16(second.Color), int16(second.Size)}}
}

// Repick replaces an unserved opening pick.
func Repick(p Piece) engine.Action {
	return engine.Action{Kind: KindRepick, Arg: [15]int16{int16(p.Color), int16(p.Size)}}
}

// Place is the first turn: a small ship of color c beside system sys.
func Place(c Color, sys int) engine.Action {
	return engine.Action{Kind: KindPlace, Arg: [15]int16{int16(c), int16(sys)}}
}

// Move is the yellow power: ship moves to location to.
func Move(ship, to int) engine.Action {
	return engine.Action{Kind: KindMove, Arg: [15]int16{int16(ship), int16(to)}}
}

// Trade is the blue power: ship becomes piece p.
func Trade(ship int, p Piece) engine.Action {
	return engine.Action{Kind: KindTrade, Arg: [15]int16{int16(ship), int16(p.Color), int16(p.Size)}}
}

// Grow is green's first power: ship becomes the next larger piece of its color.
func Grow(ship int) engine.Action { return engine.Action{Kind: KindGrow, Arg: [15]int16{int16(ship)}} }

// Add is green's second power: a new ship of ship's color and size z joins ship's system
// (green_add=own, the default).
func Add(ship int, z Size) engine.Action {
	return engine.Action{Kind: KindAdd, Arg: [15]int16{int16(ship), int16(z)}}
}

// AddTo is green's second power under green_add=any: a new ship of ship's color and size z
// joins system sys.
func AddTo(ship int, z Size, sys int) engine.Action {
	return engine.Action{Kind: KindAdd, Arg: [15]int16{int16(ship), int16(z), int16(sys + 1)}}
}

// Attack is the red power: ship attacks target; a larger target is reduced to the next smaller
// piece of its color (reduce_color=same, the default).
func Attack(ship, target int) engine.Action {
	return engine.Action{Kind: KindAttack, Arg: [15]int16{int16(ship), int16(target)}}
}

// AttackInto is the red power under reduce_color=choose against a larger target: it is
// reduced to the next smaller piece of color c. A target no larger than ship is discarded, and
// then the attack is Attack, naming no color.
func AttackInto(ship, target int, c Color) engine.Action {
	return engine.Action{Kind: KindAttack, Arg: [15]int16{int16(ship), int16(target), int16(c) + 1}}
}

// Discover turns ship upright as a new system.
func Discover(ship int) engine.Action {
	return engine.Action{Kind: KindDiscover, Arg: [15]int16{int16(ship)}}
}

// Sacrifice discards ship for uses of its power.
func Sacrifice(ship int) engine.Action {
	return engine.Action{Kind: KindSacrifice, Arg: [15]int16{int16(ship)}}
}

// Research (R&D) swaps three ships in one system, ascending ids, for piece p, which appears
// where they were (rnd_where=same, the default).
func Research(a, b, c int, p Piece) engine.Action {
	return engine.Action{Kind: KindResearch, Arg: [15]int16{int16(a), int16(b), int16(c), int16(p.Color), int16(p.Size)}}
}

// ResearchAt is R&D under rnd_where=any: the new ship p appears in system sys.
func ResearchAt(a, b, c int, p Piece, sys int) engine.Action {
	return engine.Action{Kind: KindResearch, Arg: [15]int16{int16(a), int16(b), int16(c), int16(p.Color), int16(p.Size), int16(sys + 1)}}
}

// Pass does nothing.
func Pass() engine.Action { return engine.Action{Kind: KindPass} }

// EndSacrifice gives up a sacrifice's remaining uses.
func EndSacrifice() engine.Action { return engine.Action{Kind: KindEndSacrifice} }

// Enterprise takes p as a system's second marker.
func Enterprise(p Piece) engine.Action {
	return engine.Action{Kind: KindEnterprise, Arg: [15]int16{int16(p.Color), int16(p.Size)}}
}

// Revolt takes ownership of ship.
func Revolt(ship int) engine.Action {
	return engine.Action{Kind: KindRevolt, Arg: [15]int16{int16(ship)}}
}

// Decline gives up an Enterprise or a Revolt.
func Decline() engine.Action { return engine.Action{Kind: KindDecline} }

// argPiece reads a (color, size) pair at Arg[i], Arg[i+1]; ok is false if it is not a piece.
func argPiece(a engine.Action, i int) (Piece, bool) {
	c, z := a.Arg[i], a.Arg[i+1]
	if c < 0 || c >= int16(numColors) || z < int16(Small) || z > int16(Large) {
		return Piece{}, false
	}
	return Piece{Color(c), Size(z)}, true
}

// maxTargetID is the largest system id an action may name as a target: Arg holds it plus one.
const maxTargetID = 32766

// argTarget reads an optional target system stored as 1+id at Arg[i]: named is false for 0,
// ok is false for a value that names no id.
func argTarget(a engine.Action, i int) (id int16, named, ok bool) {
	v := a.Arg[i]
	switch {
	case v == 0:
		return 0, false, true
	case v < 0:
		return 0, true, false
	}
	return v - 1, true, true
}

// argReduceColor reads attack's optional color at Arg[2], stored as 1+color: named is false
// for 0, ok is false for a value that names no color.
func argReduceColor(a engine.Action) (c Color, named, ok bool) {
	v := a.Arg[2]
	switch {
	case v == 0:
		return 0, false, true
	case v < 1 || v > int16(numColors):
		return 0, true, false
	}
	return Color(v - 1), true, true
}
