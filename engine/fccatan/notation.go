package fccatan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/orrery/orrery/engine"
)

// Notation, one line per action:
//
//	pass
//	setup h1 knights a0 a2          (or "knights none")
//	deploy h0 h0 h7 h0              (one hoop per player slot)
//	intents a0:to(1200,3400)+pick a1:stay+tag a2:vel(300,-200) a3:stay
//	        flags: +pick +place +tag +tag=s2a1 +throw=a3
//	offer s2 give wood=1,brick=1 want ore=2
//	accept s0,s3
//	buy card, settlement a2, city h4, city h5 ore, knight a3, marker a1>a2
//	plenty wood=2,ore=1
//	monopoly ore
//	discard wood=1,sheep=2
//	barbarians h5

// FormatAction is a's canonical notation.
func (s *State) FormatAction(a engine.Action) string { return FormatAction(a) }

// FormatAction is a's canonical notation; it needs no state.
func FormatAction(a engine.Action) string {
	var buf [160]byte
	return string(AppendAction(buf[:0], a))
}

// AppendAction appends a's canonical notation to b.
func AppendAction(b []byte, a engine.Action) []byte {
	switch a.Kind {
	case kindPass:
		return append(b, "pass"...)
	case kindSetup:
		b = append(b, "setup h"...)
		b = appendInt(b, int(a.Arg[0]))
		b = append(b, " knights"...)
		if a.Arg[1] == 0 {
			b = append(b, " none"...)
		}
		for i := 0; i < 16; i++ {
			if uint16(a.Arg[1])&(1<<i) != 0 {
				b = append(b, " a"...)
				b = appendInt(b, i)
			}
		}
	case kindDeploy:
		b = append(b, "deploy"...)
		for i := 0; i < maxAvatars; i++ {
			b = append(b, " h"...)
			b = appendInt(b, int(a.Arg[i]))
		}
	case kindIntents:
		b = append(b, "intents"...)
		for i := 0; i < maxAvatars; i++ {
			b = append(b, " a"...)
			b = appendInt(b, i)
			b = append(b, ':')
			b = appendIntent(b, intentOf(&a, i))
		}
	case kindOffer:
		b = append(b, "offer s"...)
		b = appendInt(b, int(a.Arg[0]))
		b = append(b, " give "...)
		b = appendCountsNotation(b, a.Arg[1:5])
		b = append(b, " want "...)
		b = appendCountsNotation(b, a.Arg[5:9])
	case kindReply:
		b = append(b, "accept "...)
		sep := false
		for t := 0; t < 16; t++ {
			if uint16(a.Arg[0])&(1<<t) != 0 {
				if sep {
					b = append(b, ',')
				}
				b = append(b, 's')
				b = appendInt(b, t)
				sep = true
			}
		}
		if !sep {
			b = append(b, "none"...)
		}
	case kindBuy:
		n := int(a.Arg[0])
		if n < 1 || n > maxItems {
			b = append(b, "?buy n="...)
			return appendInt(b, n)
		}
		b = append(b, "buy "...)
		for k := 0; k < n; k++ {
			if k > 0 {
				b = append(b, ", "...)
			}
			b = append(b, formatItem(itemOf(a, k))...)
		}
	case kindPlenty:
		b = append(b, "plenty "...)
		b = appendCountsNotation(b, a.Arg[0:4])
	case kindMonopoly:
		b = append(b, "monopoly "...)
		b = append(b, Resource(a.Arg[0]).String()...)
	case kindDiscard:
		b = append(b, "discard "...)
		b = appendCountsNotation(b, a.Arg[0:4])
	case kindBarbarians:
		b = append(b, "barbarians h"...)
		b = appendInt(b, int(a.Arg[0]))
	default:
		b = append(b, fmt.Sprintf("?kind=%d %v", a.Kind, a.Arg)...)
	}
	return b
}

func appendIntent(b []byte, in Intent) []byte {
	switch {
	case in.has(flagTo) && !in.has(flagVel):
		b = append(b, "to("...)
	case in.has(flagVel) && !in.has(flagTo):
		b = append(b, "vel("...)
	case !in.has(flagTo) && !in.has(flagVel) && in.X == 0 && in.Y == 0:
		b = append(b, "stay"...)
	default:
		return append(b, fmt.Sprintf("?(%d,%d,%d)", in.X, in.Y, in.Flags)...) // not a valid intent
	}
	if in.has(flagTo) || in.has(flagVel) {
		b = appendInt(b, int(in.X))
		b = append(b, ',')
		b = appendInt(b, int(in.Y))
		b = append(b, ')')
	}
	if in.has(flagPick) {
		b = append(b, "+pick"...)
	}
	if in.has(flagPlace) {
		b = append(b, "+place"...)
	}
	if ts, ta, ok := in.tagTarget(); ok {
		b = append(b, "+tag=s"...)
		b = appendInt(b, ts)
		b = append(b, 'a')
		b = appendInt(b, ta)
	} else if in.has(flagTag) {
		b = append(b, "+tag"...)
	}
	if in.has(flagThrow) {
		b = append(b, "+throw=a"...)
		b = appendInt(b, in.throwTo())
	}
	if in.Flags&^knownFlags != 0 || (!in.has(flagTag) && in.Flags&tagMask != 0) || (!in.has(flagThrow) && in.Flags&throwMask != 0) {
		b = append(b, "+?"...) // bits no valid intent has
	}
	return b
}

func appendCountsNotation(b []byte, n []int16) []byte {
	any := false
	for r := 0; r < numRes; r++ {
		if n[r] != 0 {
			if any {
				b = append(b, ',')
			}
			b = append(b, resNames[r]...)
			b = append(b, '=')
			b = appendInt(b, int(n[r]))
			any = true
		}
	}
	if !any {
		b = append(b, "none"...)
	}
	return b
}

func formatCounts(n []int16) string { return string(appendCountsNotation(nil, n)) }

func formatItem(it Item) string {
	switch it.Kind {
	case buySettlement:
		return fmt.Sprintf("settlement a%d", it.Param)
	case buyCity:
		if it.Param>>8 == 1 {
			return fmt.Sprintf("city h%d ore", it.Param&0xff)
		}
		if it.Param>>8 == 0 {
			return fmt.Sprintf("city h%d", it.Param)
		}
	case buyKnight:
		return fmt.Sprintf("knight a%d", it.Param)
	case buyCard:
		if it.Param == 0 {
			return "card"
		}
	case buyHandover:
		if it.Param >= 0 {
			return fmt.Sprintf("marker a%d>a%d", it.Param/maxAvatars, it.Param%maxAvatars)
		}
	}
	return fmt.Sprintf("?item(%d,%d)", it.Kind, it.Param)
}

// badNotation quotes the client's text clipped, so a huge string is never echoed in full.
func badNotation(s, why string) error {
	return fmt.Errorf("%w: %q: %s", engine.ErrBadNotation, engine.Clip(s, 80), engine.Clip(why, 80))
}

// ParseAction reads the notation of FormatAction.
func (s *State) ParseAction(text string) (engine.Action, error) { return ParseAction(text) }

// ParseAction reads the notation of FormatAction; it needs no state.
func ParseAction(text string) (engine.Action, error) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return engine.Action{}, badNotation(text, "empty")
	}
	var a engine.Action
	bad := func(why string) (engine.Action, error) { return engine.Action{}, badNotation(text, why) }
	switch f[0] {
	case "pass":
		if len(f) != 1 {
			return bad("pass takes nothing")
		}
		a.Kind = kindPass
	case "setup":
		if len(f) < 4 || f[2] != "knights" {
			return bad("want: setup h<hoop> knights a<i>... | none")
		}
		a.Kind = kindSetup
		h, ok := prefixed(f[1], "h")
		if !ok {
			return bad("hoop")
		}
		a.Arg[0] = h
		if len(f) == 4 && f[3] == "none" {
			break
		}
		for _, k := range f[3:] {
			i, ok := prefixed(k, "a")
			if !ok || i < 0 || i > 14 || a.Arg[1]&(1<<i) != 0 {
				return bad("knight " + k)
			}
			a.Arg[1] |= 1 << i
		}
	case "deploy":
		if len(f) != 1+maxAvatars {
			return bad("deploy takes one hoop per player slot")
		}
		a.Kind = kindDeploy
		for i := 0; i < maxAvatars; i++ {
			h, ok := prefixed(f[1+i], "h")
			if !ok {
				return bad("hoop " + f[1+i])
			}
			a.Arg[i] = h
		}
	case "intents":
		if len(f) != 1+maxAvatars {
			return bad("intents take one order per player slot")
		}
		a.Kind = kindIntents
		for i := 0; i < maxAvatars; i++ {
			in, ok := parseIntent(f[1+i], i)
			if !ok {
				return bad("intent " + f[1+i])
			}
			a.Arg[3*i], a.Arg[3*i+1], a.Arg[3*i+2] = in.X, in.Y, in.Flags
		}
	case "offer":
		if len(f) != 6 || f[2] != "give" || f[4] != "want" {
			return bad("want: offer s<seat> give <counts> want <counts>")
		}
		a.Kind = kindOffer
		t, ok := prefixed(f[1], "s")
		if !ok {
			return bad("seat")
		}
		a.Arg[0] = t
		if !parseCounts(f[3], a.Arg[1:5]) || !parseCounts(f[5], a.Arg[5:9]) {
			return bad("counts")
		}
	case "accept":
		if len(f) != 2 {
			return bad("want: accept s<seat>,...")
		}
		a.Kind = kindReply
		if f[1] == "none" {
			break
		}
		for _, p := range strings.Split(f[1], ",") {
			t, ok := prefixed(p, "s")
			if !ok || t < 0 || t > 14 || a.Arg[0]&(1<<t) != 0 {
				return bad("seat " + p)
			}
			a.Arg[0] |= 1 << t
		}
	case "buy":
		items := strings.Split(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "buy")), ",")
		if len(items) > maxItems {
			return bad("too many purchases")
		}
		a.Kind = kindBuy
		a.Arg[0] = int16(len(items))
		for k, p := range items {
			it, ok := parseItem(strings.Fields(p))
			if !ok {
				return bad("purchase " + strings.TrimSpace(p))
			}
			a.Arg[1+2*k], a.Arg[2+2*k] = int16(it.Kind), it.Param
		}
	case "plenty", "discard":
		if len(f) != 2 || !parseCounts(f[1], a.Arg[0:4]) {
			return bad("want: " + f[0] + " <counts>")
		}
		a.Kind = kindPlenty
		if f[0] == "discard" {
			a.Kind = kindDiscard
		}
	case "monopoly":
		r, ok := parseResource(strings.Join(f[1:], " "))
		if len(f) != 2 || !ok {
			return bad("want: monopoly <resource>")
		}
		a.Kind, a.Arg[0] = kindMonopoly, int16(r)
	case "barbarians":
		h, ok := int16(0), len(f) == 2
		if ok {
			h, ok = prefixed(f[1], "h")
		}
		if !ok {
			return bad("want: barbarians h<hoop>")
		}
		a.Kind, a.Arg[0] = kindBarbarians, h
	default:
		return bad("unknown action")
	}
	return a, nil
}

// prefixed reads "<p><int16>".
func prefixed(s, p string) (int16, bool) {
	if !strings.HasPrefix(s, p) {
		return 0, false
	}
	n, err := strconv.ParseInt(s[len(p):], 10, 16)
	return int16(n), err == nil
}

func parseCounts(s string, out []int16) bool {
	if s == "none" {
		return true
	}
	for _, p := range strings.Split(s, ",") {
		name, num, ok := strings.Cut(p, "=")
		r, rok := parseResource(name)
		n, err := strconv.ParseInt(num, 10, 16)
		if !ok || !rok || err != nil || n == 0 || out[r] != 0 {
			return false
		}
		out[r] = int16(n)
	}
	return true
}

func parseItem(f []string) (Item, bool) {
	if len(f) == 0 {
		return Item{}, false
	}
	switch {
	case f[0] == "card" && len(f) == 1:
		return CardItem(), true
	case f[0] == "settlement" && len(f) == 2:
		i, ok := prefixed(f[1], "a")
		return Item{buySettlement, i}, ok
	case f[0] == "knight" && len(f) == 2:
		i, ok := prefixed(f[1], "a")
		return Item{buyKnight, i}, ok
	case f[0] == "city" && (len(f) == 2 || len(f) == 3 && f[2] == "ore"):
		h, ok := prefixed(f[1], "h")
		if !ok || h < 0 || h > 0xff {
			return Item{}, false
		}
		if len(f) == 3 {
			h |= 1 << 8
		}
		return Item{buyCity, h}, true
	case f[0] == "marker" && len(f) == 2:
		from, to, ok := strings.Cut(f[1], ">")
		i, ok1 := prefixed(from, "a")
		j, ok2 := prefixed(to, "a")
		if !ok || !ok1 || !ok2 || i < 0 || i >= maxAvatars || j < 0 || j >= maxAvatars {
			return Item{}, false
		}
		return Item{buyHandover, i*maxAvatars + j}, true
	}
	return Item{}, false
}

// parseIntent reads "a<i>:" followed by stay, to(x,y) or vel(x,y), then +flags.
func parseIntent(s string, i int) (Intent, bool) {
	rest, ok := strings.CutPrefix(s, "a"+strconv.Itoa(i)+":")
	if !ok {
		return Intent{}, false
	}
	var in Intent
	motion, flags, _ := strings.Cut(rest, "+")
	switch {
	case motion == "stay":
	case strings.HasPrefix(motion, "to(") || strings.HasPrefix(motion, "vel("):
		open := strings.IndexByte(motion, '(')
		x, y, ok := strings.Cut(strings.TrimSuffix(motion[open+1:], ")"), ",")
		xn, err1 := strconv.ParseInt(x, 10, 16)
		yn, err2 := strconv.ParseInt(y, 10, 16)
		if !ok || !strings.HasSuffix(motion, ")") || err1 != nil || err2 != nil {
			return Intent{}, false
		}
		in = To(int16(xn), int16(yn))
		if motion[0] == 'v' {
			in = Velocity(int16(xn), int16(yn))
		}
	default:
		return Intent{}, false
	}
	if flags == "" {
		return in, true
	}
	for _, f := range strings.Split(flags, "+") {
		switch {
		case f == "pick" && !in.has(flagPick):
			in.Flags |= flagPick
		case f == "place" && !in.has(flagPlace):
			in.Flags |= flagPlace
		case f == "tag" && !in.has(flagTag):
			in.Flags |= flagTag
		case strings.HasPrefix(f, "tag=s") && !in.has(flagTag):
			ts, ta, ok := strings.Cut(f[5:], "a")
			t, err1 := strconv.Atoi(ts)
			a, err2 := strconv.Atoi(ta)
			if !ok || err1 != nil || err2 != nil || t < 0 || t >= maxTeams || a < 0 || a >= maxAvatars {
				return Intent{}, false
			}
			in = in.TagPlayer(t, a)
		case strings.HasPrefix(f, "throw=a") && !in.has(flagThrow):
			a, err := strconv.Atoi(f[7:])
			if err != nil || a < 0 || a >= maxAvatars {
				return Intent{}, false
			}
			in = in.Throw(a)
		default:
			return Intent{}, false
		}
	}
	return in, true
}
