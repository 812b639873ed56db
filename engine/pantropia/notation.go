package pantropia

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/orrery/orrery/engine"
)

// Notation, one canonical text per action:
//
//	settle i5 s12            luddite | pass
//	terraform d4 d20         pantropy atm.0 hab.2 | pantropy none
//	earth red blue           offer p2 give 2red take 1blue+1green
//	accept | decline         ring j17 | habitat i5 | arcology i5 | shuttle i5
//	buy | end                play orbital_mirror | play shuttle p2 i7 | play aquifer red
//	play guided_comet hab.2 blue                 remove j17 | remove none
//	abandon i5               discard 3 red

func itoa(n int) string { return strconv.Itoa(n) }

func (s *state) FormatAction(a engine.Action) string {
	x0, x1 := int(a.Arg[0]), int(a.Arg[1])
	switch a.Kind {
	case KindSettle:
		return "settle i" + itoa(x0) + " s" + itoa(x1)
	case KindReact:
		if x0 == 1 {
			return "luddite"
		}
		if x0 == 0 {
			return "pass"
		}
	case KindTerraform:
		if inRange(a.Arg[0], NumDice) && inRange(a.Arg[1], NumDice) {
			return "terraform " + dieNames[x0] + " " + dieNames[x1]
		}
	case KindPantropy:
		if x0 == -1 && x1 == -1 {
			return "pantropy none"
		}
		if inRange(a.Arg[0], s.cfg.slots) && inRange(a.Arg[1], s.cfg.slots) {
			return "pantropy " + s.cfg.slotName[x0] + " " + s.cfg.slotName[x1]
		}
	case KindEarth:
		if inRange(a.Arg[0], NumColors) && inRange(a.Arg[1], NumColors) {
			return "earth " + Color(x0).String() + " " + Color(x1).String()
		}
	case KindOffer:
		to, give, take := OfferParts(a)
		return "offer p" + itoa(to) + " give " + formatChips(give) + " take " + formatChips(take)
	case KindReply:
		if x0 == 1 {
			return "accept"
		}
		if x0 == 0 {
			return "decline"
		}
	case KindRing:
		return "ring j" + itoa(x0)
	case KindHabitat:
		return "habitat i" + itoa(x0)
	case KindArcology:
		return "arcology i" + itoa(x0)
	case KindShuttle:
		return "shuttle i" + itoa(x0)
	case KindBuy:
		return "buy"
	case KindEnd:
		return "end"
	case KindPlay:
		k := Card(x0)
		if k < OrbitalMirror || k >= numCards {
			break
		}
		t := "play " + k.String()
		switch k {
		case ShuttleCard:
			return t + " p" + itoa(x1) + " i" + itoa(int(a.Arg[2]))
		case Aquifer:
			if inRange(a.Arg[1], NumColors) {
				return t + " " + Color(x1).String()
			}
			return t + " ?"
		case GuidedComet:
			if inRange(a.Arg[1], s.cfg.slots) && inRange(a.Arg[2], NumColors) {
				return t + " " + s.cfg.slotName[x1] + " " + Color(a.Arg[2]).String()
			}
			return t + " ?"
		}
		return t
	case KindRemove:
		if x0 == -1 {
			return "remove none"
		}
		return "remove j" + itoa(x0)
	case KindAbandon:
		return "abandon i" + itoa(x0)
	case KindDiscard:
		if inRange(a.Arg[0], NumColors) {
			return "discard " + itoa(x1) + " " + Color(x0).String()
		}
	}
	return fmt.Sprintf("?%d%v", a.Kind, a.Arg)
}

// formatChips writes a chip count as "2red+1blue", colors in order; "0" when empty.
func formatChips(c [NumColors]int16) string {
	var b strings.Builder
	for i, n := range c {
		if n == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(int(n)))
		b.WriteString(Color(i).String())
	}
	if b.Len() == 0 {
		return "0"
	}
	return b.String()
}

func parseChips(t string) ([NumColors]int16, bool) {
	var c [NumColors]int16
	if t == "0" {
		return c, true
	}
	for _, part := range strings.Split(t, "+") {
		i := 0
		for i < len(part) && part[i] >= '0' && part[i] <= '9' {
			i++
		}
		n, err := strconv.Atoi(part[:i])
		col, ok := parseColor(part[i:])
		if err != nil || !ok || n < 1 || n > 9999 || c[col] != 0 {
			return c, false
		}
		c[col] = int16(n)
	}
	return c, true
}

func badNotation(s string) error {
	return fmt.Errorf("%w: %q", engine.ErrBadNotation, s)
}

// prefixed reads "i12" style ids: prefix then a number below n.
func prefixed(t, prefix string, n int) (int, bool) {
	if !strings.HasPrefix(t, prefix) {
		return 0, false
	}
	v, err := strconv.Atoi(t[len(prefix):])
	if err != nil || v < 0 || v >= n || strconv.Itoa(v) != t[len(prefix):] {
		return 0, false
	}
	return v, true
}

func dieByName(t string) (int, bool) {
	for i, n := range dieNames {
		if n == t {
			return i, true
		}
	}
	return 0, false
}

func (s *state) ParseAction(text string) (engine.Action, error) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return engine.Action{}, badNotation(text)
	}
	bad := func() (engine.Action, error) { return engine.Action{}, badNotation(text) }
	word := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	n := len(f)
	switch f[0] {
	case "settle":
		x, ok1 := prefixed(word(1), "i", NumIntersections)
		st, ok2 := prefixed(word(2), "s", NumStruts)
		if n == 3 && ok1 && ok2 {
			return Settle(x, st), nil
		}
	case "luddite", "pass", "accept", "decline", "buy", "end":
		if n != 1 {
			return bad()
		}
		switch f[0] {
		case "luddite":
			return React(true), nil
		case "pass":
			return React(false), nil
		case "accept":
			return Reply(true), nil
		case "decline":
			return Reply(false), nil
		case "buy":
			return Buy(), nil
		}
		return End(), nil
	case "terraform":
		a, ok1 := dieByName(word(1))
		b, ok2 := dieByName(word(2))
		if n == 3 && ok1 && ok2 && a < b {
			return Terraform(a, b), nil
		}
	case "pantropy":
		if n == 2 && f[1] == "none" {
			return PantropyNone(), nil
		}
		a, b := s.cfg.slotByName(word(1)), s.cfg.slotByName(word(2))
		if n == 3 && a >= 0 && b >= 0 {
			return Pantropy(a, b), nil
		}
	case "earth":
		a, ok1 := parseColor(word(1))
		b, ok2 := parseColor(word(2))
		if n == 3 && ok1 && ok2 {
			return Earth(a, b), nil
		}
	case "offer":
		to, ok := prefixed(word(1), "p", maxSeats)
		if n != 6 || !ok || f[2] != "give" || f[4] != "take" {
			return bad()
		}
		give, ok1 := parseChips(f[3])
		take, ok2 := parseChips(f[5])
		if ok1 && ok2 {
			return Offer(to, give, take), nil
		}
	case "ring", "habitat", "arcology", "shuttle", "abandon":
		if n != 2 {
			return bad()
		}
		if f[0] == "ring" {
			if j, ok := prefixed(f[1], "j", NumJoints); ok {
				return Ring(j), nil
			}
			return bad()
		}
		x, ok := prefixed(f[1], "i", NumIntersections)
		if !ok {
			return bad()
		}
		switch f[0] {
		case "habitat":
			return Habitat(x), nil
		case "arcology":
			return Arcology(x), nil
		case "shuttle":
			return BuildShuttle(x), nil
		}
		return Abandon(x), nil
	case "remove":
		if n == 2 && f[1] == "none" {
			return Remove(-1), nil
		}
		if j, ok := prefixed(word(1), "j", NumJoints); ok && n == 2 {
			return Remove(j), nil
		}
	case "discard":
		v, err := strconv.Atoi(word(1))
		c, ok := parseColor(word(2))
		if n == 3 && err == nil && ok && v >= 1 && v <= 9999 && strconv.Itoa(v) == f[1] {
			return Discard(c, v), nil
		}
	case "play":
		return s.parsePlay(f, text)
	}
	return bad()
}

func (s *state) parsePlay(f []string, text string) (engine.Action, error) {
	if len(f) < 2 {
		return engine.Action{}, badNotation(text)
	}
	k := cardNone
	for i := OrbitalMirror; i < numCards; i++ {
		if cardNames[i] == f[1] {
			k = i
		}
	}
	switch {
	case k == cardNone:
	case k == ShuttleCard && len(f) == 4:
		q, ok1 := prefixed(f[2], "p", maxSeats)
		x, ok2 := prefixed(f[3], "i", NumIntersections)
		if ok1 && ok2 {
			return PlayShuttle(q, x), nil
		}
	case k == Aquifer && len(f) == 3:
		if c, ok := parseColor(f[2]); ok {
			return PlayAquifer(c), nil
		}
	case k == GuidedComet && len(f) == 4:
		slot := s.cfg.slotByName(f[2])
		c, ok := parseColor(f[3])
		if slot >= 0 && ok {
			return PlayComet(slot, c), nil
		}
	case k != ShuttleCard && k != Aquifer && k != GuidedComet && len(f) == 2:
		return Play(k), nil
	}
	return engine.Action{}, badNotation(text)
}
