package fccatan

// --- Distance queries: the nearest pile, hoop or opponent.

// nearestPile is the nearest pile of r with a ball, or -1.
func (s *State) nearestPile(p Vec, r Resource) int {
	best, bestD := -1, int64(0)
	for k, spot := range s.c.field.Piles {
		if d := dist2(p, spot.Pos); spot.Resource == r && s.piles[k] > 0 && (best < 0 || d < bestD) {
			best, bestD = k, d
		}
	}
	return best
}

// nearestHoop is the nearest hoop owned by owner (-1: free) holding building b, or -1.
func (s *State) nearestHoop(p Vec, owner int, b int8) int {
	best, bestD := -1, int64(0)
	for h := range s.c.field.Hoops {
		if int(s.owner[h]) != owner || s.building[h] != b {
			continue
		}
		if d := dist2(p, s.c.field.Hoops[h].Center); best < 0 || d < bestD {
			best, bestD = h, d
		}
	}
	return best
}

// nearestOpponent is the nearest free opponent of team t (a carrier if carriers), or -1.
func (s *State) nearestOpponent(p Vec, t int, carriers bool) ref {
	best, bestD := ref(-1), int64(0)
	for u := 0; u < s.c.teams; u++ {
		for j := 0; j < int(s.teams[u].size) && u != t; j++ {
			v := &s.teams[u].av[j]
			if d := dist2(p, v.pos); !v.frozen && (!carriers || v.carry != noRes) && (best < 0 || d < bestD) {
				best, bestD = ref(u*maxAvatars+j), d
			}
		}
	}
	return best
}

// nearestPiles is nearestPile of every resource, in one pass over the piles: every free
// player's options ask for the four on every tick, and four passes were a quarter of a random
// game's work.
func (s *State) nearestPiles(p Vec) [numRes]int {
	best := [numRes]int{-1, -1, -1, -1}
	var bestD [numRes]int64
	piles := s.c.field.Piles
	for k := range piles {
		if s.piles[k] <= 0 {
			continue
		}
		spot := &piles[k]
		if d, r := dist2(p, spot.Pos), spot.Resource; best[r] < 0 || d < bestD[r] {
			best[r], bestD[r] = k, d
		}
	}
	return best
}

// nearestOpponents is nearestOpponent(p, t, true) and nearestOpponent(p, t, false) in one
// pass over the players: a knight's options ask for both on every tick.
func (s *State) nearestOpponents(p Vec, t int) (carrier, any ref) {
	carrier, any = -1, -1
	var carrierD, anyD int64
	for u := range s.teams[:s.c.teams] {
		tm := &s.teams[u]
		if u == t {
			continue
		}
		for j := range tm.av[:tm.size] {
			v := &tm.av[j]
			if v.frozen {
				continue
			}
			d, r := dist2(p, v.pos), ref(u*maxAvatars+j)
			if any < 0 || d < anyD {
				any, anyD = r, d
			}
			if v.carry != noRes && (carrier < 0 || d < carrierD) {
				carrier, carrierD = r, d
			}
		}
	}
	return carrier, any
}

// freePlayers is the players not frozen by a tag, gathered once a tick for the knights' tags:
// a compact list is scanned several times faster than the teams, and most opponents are
// passed over on their x alone.
type freePlayers struct {
	pos [maxTeams * maxAvatars]Vec
	who [maxTeams * maxAvatars]ref
	n   int
}

func (l *freePlayers) gather(s *State) {
	l.n = 0
	for u := range s.teams[:s.c.teams] {
		tm := &s.teams[u]
		for j := range tm.av[:tm.size] {
			if v := &tm.av[j]; !v.frozen {
				l.pos[l.n&(len(l.pos)-1)], l.who[l.n&(len(l.who)-1)] = v.pos, ref(u*maxAvatars+j)
				l.n++
			}
		}
	}
}

// nearestWithin is the nearest free opponent of team t at most reach from p, the lowest ref on
// ties, or -1.
func (l *freePlayers) nearestWithin(p Vec, t int, reach int32) ref {
	r := int64(reach)
	best, bestD := ref(-1), r*r+1
	for k := range l.pos[:l.n] {
		q := l.pos[k]
		dx := int64(q.X) - int64(p.X)
		if uint64(dx+r) > uint64(2*r) || uint(int(l.who[k])-t*maxAvatars) < maxAvatars {
			continue
		}
		dy := int64(q.Y) - int64(p.Y)
		if d := dx*dx + dy*dy; d < bestD {
			best, bestD = l.who[k], d
		}
	}
	return best
}
