package icetraders

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/orrery/orrery/engine"
)

// The notation, one form per kind (ships are s<id>, systems and hyperspaces sys<id>):
//
//	align good | align evil
//	pick red large, blue small
//	repick green medium
//	place yellow at sys3
//	move s4 to sys2
//	trade s4 for blue small
//	grow s4
//	add medium from s4
//	add medium from s4 to sys3               (green_add=any: the system is always named)
//	attack s7 with s4
//	attack s7 with s4 into blue              (reduce_color=choose: named when s7 is larger)
//	discover s4
//	sacrifice s4
//	research s1 s2 s3 for red large
//	research s1 s2 s3 for red large at sys5  (rnd_where=any: the system is always named)
//	pass | end sacrifice | decline
//	enterprise blue small
//	revolt s7

var kindNames = [numKinds_]string{
	KindAlign: "align", KindPicks: "pick", KindRepick: "repick", KindPlace: "place", KindMove: "move",
	KindTrade: "trade", KindGrow: "grow", KindAdd: "add", KindAttack: "attack", KindDiscover: "discover",
	KindSacrifice: "sacrifice", KindResearch: "research", KindPass: "pass", KindEndSacrifice: "end sacrifice",
	KindEnterprise: "enterprise", KindRevolt: "revolt", KindDecline: "decline",
}

func kindName(k uint16) string {
	if k < numKinds_ && kindNames[k] != "" {
		return kindNames[k]
	}
	return "kind " + strconv.Itoa(int(k))
}

// FormatAction is a's canonical notation.
func (s *State) FormatAction(a engine.Action) string { return formatAction(a) }

// FormatAction is a's canonical notation, for bots and tools without a state.
func FormatAction(a engine.Action) string { return formatAction(a) }

func formatAction(a engine.Action) string {
	pieceAt := func(i int) string {
		if p, ok := argPiece(a, i); ok {
			return p.String()
		}
		return fmt.Sprintf("?%d/%d", a.Arg[i], a.Arg[i+1])
	}
	ship := func(i int) string { return "s" + strconv.Itoa(int(a.Arg[i])) }
	sys := func(i int) string { return "sys" + strconv.Itoa(int(a.Arg[i])) }
	// target is an optional target system stored as 1+id: "" if none is named.
	target := func(i int, word string) (string, bool) {
		id, named, ok := argTarget(a, i)
		if !named || !ok {
			return "", ok
		}
		return word + "sys" + strconv.Itoa(int(id)), true
	}
	switch a.Kind {
	case KindAlign:
		return "align " + Alignment(a.Arg[0]).String()
	case KindPicks:
		return "pick " + pieceAt(0) + ", " + pieceAt(2)
	case KindRepick:
		return "repick " + pieceAt(0)
	case KindPlace:
		if a.Arg[0] >= 0 && a.Arg[0] < int16(numColors) {
			return "place " + Color(a.Arg[0]).String() + " at " + sys(1)
		}
	case KindMove:
		return "move " + ship(0) + " to " + sys(1)
	case KindTrade:
		return "trade " + ship(0) + " for " + pieceAt(1)
	case KindGrow:
		return "grow " + ship(0)
	case KindAdd:
		if a.Arg[1] >= int16(Small) && a.Arg[1] <= int16(Large) {
			if to, ok := target(2, " to "); ok {
				return "add " + Size(a.Arg[1]).String() + " from " + ship(0) + to
			}
		}
	case KindAttack:
		if c, named, ok := argReduceColor(a); !named {
			return "attack " + ship(1) + " with " + ship(0)
		} else if ok {
			return "attack " + ship(1) + " with " + ship(0) + " into " + c.String()
		}
	case KindDiscover:
		return "discover " + ship(0)
	case KindSacrifice:
		return "sacrifice " + ship(0)
	case KindResearch:
		if at, ok := target(5, " at "); ok {
			return "research " + ship(0) + " " + ship(1) + " " + ship(2) + " for " + pieceAt(3) + at
		}
	case KindPass, KindEndSacrifice, KindDecline:
		return kindNames[a.Kind]
	case KindEnterprise:
		return "enterprise " + pieceAt(0)
	case KindRevolt:
		return "revolt " + ship(0)
	}
	return fmt.Sprintf("?%s %v", kindName(a.Kind), a.Arg)
}

// ParseAction reads the notation back. It checks form, not legality.
func (s *State) ParseAction(text string) (engine.Action, error) { return ParseAction(text) }

// ParseAction reads an action's notation.
func ParseAction(text string) (engine.Action, error) {
	f := strings.Fields(strings.ReplaceAll(strings.ToLower(text), ",", " "))
	bad := func(why string) (engine.Action, error) {
		return engine.Action{}, fmt.Errorf("%w: %q: %s", engine.ErrBadNotation, text, why)
	}
	if len(f) == 0 {
		return bad("empty")
	}
	p := parser{f: f[1:]}
	var a engine.Action
	switch f[0] {
	case "align":
		switch p.word() {
		case "good":
			a = ChooseAlignment(Good)
		case "evil":
			a = ChooseAlignment(Evil)
		default:
			return bad("want align good or align evil")
		}
	case "pick":
		a = ChoosePicks(p.piece(), p.piece())
	case "repick":
		a = Repick(p.piece())
	case "place":
		c := p.color()
		p.lit("at")
		a = Place(c, p.id("sys"))
	case "move":
		x := p.id("s")
		p.lit("to")
		a = Move(x, p.id("sys"))
	case "trade":
		x := p.id("s")
		p.lit("for")
		a = Trade(x, p.piece())
	case "grow":
		a = Grow(p.id("s"))
	case "add":
		z := p.size()
		p.lit("from")
		a = Add(p.id("s"), z)
		if p.more("to") {
			a.Arg[2] = int16(p.target() + 1)
		}
	case "attack":
		t := p.id("s")
		p.lit("with")
		a = Attack(p.id("s"), t)
		if p.more("into") {
			a.Arg[2] = int16(p.color()) + 1
		}
	case "discover":
		a = Discover(p.id("s"))
	case "sacrifice":
		a = Sacrifice(p.id("s"))
	case "research":
		x, y, z := p.id("s"), p.id("s"), p.id("s")
		p.lit("for")
		a = Research(x, y, z, p.piece())
		if p.more("at") {
			a.Arg[5] = int16(p.target() + 1)
		}
	case "pass":
		a = Pass()
	case "end":
		p.lit("sacrifice")
		a = EndSacrifice()
	case "decline":
		a = Decline()
	case "enterprise":
		a = Enterprise(p.piece())
	case "revolt":
		a = Revolt(p.id("s"))
	default:
		return bad("unknown action " + strconv.Quote(f[0]))
	}
	if p.err != "" {
		return bad(p.err)
	}
	if len(p.f) > 0 {
		return bad("unexpected " + strconv.Quote(p.f[0]))
	}
	return a, nil
}

// parser reads words in order and keeps the first error.
type parser struct {
	f   []string
	err string
}

func (p *parser) word() string {
	if p.err != "" {
		return ""
	}
	if len(p.f) == 0 {
		p.err = "too short"
		return ""
	}
	w := p.f[0]
	p.f = p.f[1:]
	return w
}

func (p *parser) lit(want string) {
	if w := p.word(); p.err == "" && w != want {
		p.err = "want " + strconv.Quote(want) + ", got " + strconv.Quote(w)
	}
}

// more reports whether the next word is the optional word want, and if so reads it.
func (p *parser) more(want string) bool {
	if p.err != "" || len(p.f) == 0 || p.f[0] != want {
		return false
	}
	p.f = p.f[1:]
	return true
}

// target reads a target system, sys<id> with id at most maxTargetID.
func (p *parser) target() int {
	n := p.id("sys")
	if p.err == "" && n > maxTargetID {
		p.err = "a target system's id is at most " + strconv.Itoa(maxTargetID)
		return 0
	}
	return n
}

func (p *parser) color() Color {
	w := p.word()
	for c := Red; c < numColors; c++ {
		if w == colorNames[c] {
			return c
		}
	}
	if p.err == "" {
		p.err = "no color " + strconv.Quote(w)
	}
	return 0
}

func (p *parser) size() Size {
	w := p.word()
	for z := Small; z <= Large; z++ {
		if w == sizeNames[z] {
			return z
		}
	}
	if p.err == "" {
		p.err = "no size " + strconv.Quote(w)
	}
	return 0
}

func (p *parser) piece() Piece {
	c := p.color()
	return Piece{c, p.size()}
}

// id reads prefix followed by a number 0..32767.
func (p *parser) id(prefix string) int {
	w := p.word()
	if p.err != "" {
		return 0
	}
	num, ok := strings.CutPrefix(w, prefix)
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 0 || n > 32767 || num != strconv.Itoa(n) {
		p.err = "want " + prefix + "<number>, got " + strconv.Quote(w)
		return 0
	}
	return n
}
