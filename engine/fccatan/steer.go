package fccatan

import (
	"math"

	"github.com/orrery/orrery/engine"
)

// Steer is team t's intents for this tick as the greedy bot (bots/fccatan) steers them, read
// from the state rather than from an observation, so a planner can simulate greedy players
// tick by tick without building views: runners go to the pile whose resource the team needs
// most per metre of the round trip and pick up on arrival, carriers run home, marker carriers
// go to the free hoop nearest the far piles, knights intercept a carrier come near (else
// collect, else hunt the nearest carrier) and tag whoever comes in reach. It reads only what
// every team sees. bots/fccatan's TestSteer_PlaysAsGreedy holds the two to the same choices.
func (s *State) Steer(t int) engine.Action {
	a := engine.Action{Kind: kindIntents}
	if s.phase != PhaseTick || t < 0 || t >= s.c.teams {
		return a
	}
	f := s.c.field
	tm := &s.teams[t]
	speed := float64(s.c.speed)
	left := float64((int32(s.c.ticksPerRound) - s.tick) * int32(s.c.tickMS))
	// How far a player can still run this round, keeping two ticks in hand.
	budget := speed*left/1000 - 2*speed*float64(s.c.tickMS)/1000
	reach := float64(s.c.reach)
	step := speed * float64(s.c.tickMS) / 1000
	var balls [maxPiles]int
	for k := range f.Piles {
		balls[k] = int(s.piles[k])
	}
	planned := tm.res
	for i := 0; i < int(tm.size); i++ {
		if c := tm.av[i].carry; c != noRes {
			planned[c]++
		}
	}
	var back [maxPiles]float64 // from each pile to the team's nearest city, once a runner asks
	backRead := false
	var chased [maxTeams * maxAvatars]bool
	var ob [maxTeams * maxAvatars]ref
	opps := s.opponents(t, ob[:0])
	for i := 0; i < int(tm.size); i++ {
		av := &tm.av[i]
		p := av.pos
		var in Intent
		set := false
		switch {
		case av.frozen:
			set = true
		case av.carry != noRes:
			if h := s.steerHoop(p, t, city); h >= 0 {
				in, set = to(f.Hoops[h].Center), true
			}
		case av.markers > 0:
			if h := s.placeHoop(p, budget); h >= 0 {
				in, set = to(f.Hoops[h].Center).Place(), true
			}
		}
		if !set && av.knight && !av.collected {
			// Intercept a carrier that has come near: the ball and the denial.
			best, bestD := ref(-1), 700.0
			for _, v := range opps {
				op := s.at(v)
				if d := hypot(p, op.pos); op.carry != noRes && !chased[v] && d < bestD {
					best, bestD = v, d
				}
			}
			if best >= 0 {
				op := s.at(best)
				lead := bestD / speed // seconds to get there; aim where it will be
				aim := Vec{X: op.pos.X + int32(float64(op.vel.X)*lead*0.5), Y: op.pos.Y + int32(float64(op.vel.Y)*lead*0.5)}
				aim.X, aim.Y = min(max(aim.X, 0), f.Width), min(max(aim.Y, 0), f.Height)
				if bestD <= reach {
					aim = op.pos
				}
				in, set = to(aim).TagPlayer(best.team(), best.avatar()), true
				chased[best] = true
			}
		}
		if !set && !av.collected {
			if !backRead {
				for k, pile := range f.Piles {
					_, back[k] = s.steerHoopDist(pile.Pos, t, city)
				}
				backRead = true
			}
			if k := s.steerPile(p, t, &balls, &back, planned, budget); k >= 0 {
				in, set = to(f.Piles[k].Pos), true
				// Pick up only on arrival: a path can pass within reach of another pile.
				if hypot(p, f.Piles[k].Pos) <= reach+2*step {
					in = in.PickUp()
				}
				balls[k]--
				planned[f.Piles[k].Resource]++
			}
		}
		if !set && av.knight {
			// Done collecting: hunt the nearest opposing carrier anywhere.
			best, bestD := ref(-1), math.Inf(1)
			for _, v := range opps {
				if d := hypot(p, s.at(v).pos); s.at(v).carry != noRes && d < bestD {
					best, bestD = v, d
				}
			}
			if best >= 0 {
				in = to(s.at(best).pos)
			}
		}
		if av.knight {
			in = in.Tag() // tag whoever comes in reach
		}
		a.Arg[3*i], a.Arg[3*i+1], a.Arg[3*i+2] = in.X, in.Y, in.Flags
	}
	return a
}

// opponents appends team t's opponents on the field (not frozen), by seat and player.
func (s *State) opponents(t int, buf []ref) []ref {
	for u := 0; u < s.c.teams; u++ {
		for j := 0; j < int(s.teams[u].size) && u != t; j++ {
			if !s.teams[u].av[j].frozen {
				buf = append(buf, ref(u*maxAvatars+j))
			}
		}
	}
	return buf
}

func hypot(a, b Vec) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }

// steerHoop is the nearest hoop (by the straight line, the first on ties) owned by owner (-1:
// free) holding building b (any, for a free hoop), and its distance; -1 if none.
func (s *State) steerHoop(p Vec, owner int, b int8) int {
	h, _ := s.steerHoopDist(p, owner, b)
	return h
}

func (s *State) steerHoopDist(p Vec, owner int, b int8) (int, float64) {
	best, bestD := -1, math.Inf(1)
	for h, hp := range s.c.field.Hoops {
		if int(s.owner[h]) != owner || owner >= 0 && s.building[h] != b {
			continue
		}
		if d := hypot(p, hp.Center); d < bestD {
			best, bestD = h, d
		}
	}
	return best, bestD
}

// placeHoop is the free hoop to place a marker in: the one nearest the far piles (a future
// city there shortens the trips), if the player can reach it this round; -1 otherwise.
func (s *State) placeHoop(p Vec, budget float64) int {
	best, bestS := -1, math.Inf(-1)
	for h, hp := range s.c.field.Hoops {
		if s.owner[h] >= 0 {
			continue
		}
		d := hypot(p, hp.Center)
		if d > budget {
			continue
		}
		sc := -d / 4
		for _, pile := range s.c.field.Piles {
			sc -= hypot(hp.Center, pile.Pos) / 12
		}
		if sc > bestS {
			best, bestS = h, sc
		}
	}
	return best
}

// steerPile is the pile worth most per metre of the trip there and back to a city of team t
// (back: from each pile), among those with a ball left and a trip that fits before the
// whistle; -1 if none.
func (s *State) steerPile(p Vec, t int, balls *[maxPiles]int, back *[maxPiles]float64, planned [numRes]int16, budget float64) int {
	need := s.steerNeeds(t, planned)
	best, bestS := -1, 0.0
	for k, pile := range s.c.field.Piles {
		if balls[k] <= 0 {
			continue
		}
		trip := hypot(p, pile.Pos) + back[k]
		if trip > budget {
			continue
		}
		if sc := need[pile.Resource] / (trip + 800); sc > bestS {
			best, bestS = k, sc
		}
	}
	return best
}

// steerNeeds weighs each resource by what team t's next purchases still lack, as greedy
// does: a knight (the cheapest VP) first, then a city, a settlement and a card; every
// resource keeps a small weight so idle players still collect.
func (s *State) steerNeeds(t int, have [numRes]int16) [numRes]float64 {
	var n [numRes]float64
	add := func(kind int, w float64) {
		for r := 0; r < numRes; r++ {
			c := int16(s.c.costs[kind][r])
			if kind == buyCity && s.c.citySheepOrOre && r == int(Sheep) {
				c++ // plan for sheep; ore is paid instead when the team has more ore
			}
			if miss := c - have[r]; miss > 0 {
				n[r] += w * float64(miss)
			}
		}
	}
	tm := &s.teams[t]
	for i := 0; i < int(tm.size); i++ {
		if !tm.av[i].knight {
			add(buyKnight, 3)
			break
		}
	}
	for h := range s.c.field.Hoops {
		if int(s.owner[h]) == t && s.building[h] == settlement {
			add(buyCity, 2.5)
			break
		}
	}
	add(buySettlement, 1.5)
	if s.deckLeft() > 0 {
		add(buyCard, 1)
	}
	for r := range n {
		n[r] += 0.2
	}
	return n
}

// SteerHolding is Steer for team t but for the players in held (bit i: player i), who keep
// their standing intents: a team whose planner overrode some players' orders, steered by
// greedy for the rest.
func (s *State) SteerHolding(t int, held uint8) engine.Action {
	a := s.Steer(t)
	if held == 0 || s.phase != PhaseTick {
		return a
	}
	for i := 0; i < int(s.teams[t].size); i++ {
		if held&(1<<i) != 0 {
			in := s.order(t, i)
			a.Arg[3*i], a.Arg[3*i+1], a.Arg[3*i+2] = in.X, in.Y, in.Flags
		}
	}
	return a
}

// Overrides names the players (bit i: player i) whose intent in chosen, a team's intents for a
// tick, is a planner's own order: changed from keep (the standing intents) and not running
// where greedy (its Steer) sends it. Flags aside: greedy raises its pickup flag only on arrival.
func Overrides(chosen, keep, greedy engine.Action) uint8 {
	var held uint8
	for i := 0; i < maxAvatars; i++ {
		c, g := intentOf(&chosen, i), intentOf(&greedy, i)
		const motion = flagTo | flagVel
		if c != intentOf(&keep, i) && (c.X != g.X || c.Y != g.Y || c.Flags&motion != g.Flags&motion) {
			held |= 1 << i
		}
	}
	return held
}

// Round is the current round, counted from 1 (0 before the first).
func (s *State) Round() int { return int(s.round) }

// Tick is the current tick of the round, counted from 0.
func (s *State) Tick() int { return int(s.tick) }
