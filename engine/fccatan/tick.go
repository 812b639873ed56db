package fccatan

// --- A tick: movement, delivery, tags, throws, pickups, placements, and the whistle.

// resolveTick resolves one tick, in the order of rules/full-contact-catan.md's precise
// resolution 2: movement, delivery, tags, (throws), pickups, placements.
func (s *State) resolveTick() {
	s.move() // and delivery
	s.tags()
	if s.c.throwing {
		s.throws()
	}
	s.pickupsAndPlacements()
	s.tick++
	s.resetStep()
	if int(s.tick) >= s.c.ticksPerRound {
		s.whistle()
	}
}

// move takes each team's intents (a team that sent nothing keeps its last), runs every unfrozen
// player toward its target, or at its velocity, no faster than the top speed, clamped to the
// field, and delivers. Players pass through each other, so a player's run and delivery depend
// on no other player's and one pass over the players does all three: a tick is resolved for
// every 4 decisions, and each pass over 16 players costs as much as a team's list.
func (s *State) move() {
	step := int64(s.c.step)
	w, h := int64(s.c.field.Width), int64(s.c.field.Height)
	// A tick is 1000/rate ms, so a run of d cm in a tick is d*rate cm/s: d*1000/ms without the
	// division (two for every running player on every tick).
	rate := int32(1000 / s.c.tickMS)
	for t := range s.teams[:s.c.teams] {
		tm := &s.teams[t]
		for i := range tm.av[:tm.size] {
			av := &tm.av[i]
			if tm.done {
				av.order = intentOf(&tm.pending, i)
			}
			if av.frozen {
				av.vel = Vec{}
				continue
			}
			s.run(av, step, w, h, rate)
			if av.carry != noRes && s.inOwnCity(av.pos, t) {
				s.deliver(t, i, av)
			}
		}
	}
}

// run moves unfrozen player av one tick.
func (s *State) run(av *avatar, step, w, h int64, rate int32) {
	var dx, dy int64
	switch o := av.order; {
	case o.has(flagTo):
		dx, dy = towards(av.pos, Vec{int32(o.X), int32(o.Y)}, step)
	case o.has(flagVel):
		vx, vy := int64(o.X), int64(o.Y)
		if sp := int64(s.c.speed); vx*vx+vy*vy > sp*sp {
			d := isqrt(vx*vx + vy*vy)
			vx, vy = vx*sp/d, vy*sp/d
		}
		ms := int64(s.c.tickMS)
		dx, dy = vx*ms/1000, vy*ms/1000
	}
	from := av.pos
	x, y := int64(from.X), int64(from.Y)
	if dx == 0 && dy == 0 && x >= 0 && x <= w && y >= 0 && y <= h { // standing, on the field
		av.vel = Vec{}
		return
	}
	av.pos.X = int32(min(max(x+dx, 0), w))
	av.pos.Y = int32(min(max(y+dy, 0), h))
	av.vel = Vec{(av.pos.X - from.X) * rate, (av.pos.Y - from.Y) * rate}
}

// hoopAt is the hoop p stands in (the nearest centre when hoops overlap), or -1: Field.hoopAt
// measuring only the hoops the grid gives for p's cell.
func (s *State) hoopAt(p Vec) int {
	hoops := s.c.field.Hoops
	best, bestD := -1, int64(-1)
	for m := s.c.spots.hoops.near(p); m != 0; {
		h := next(&m)
		if d := dist2(p, hoops[h].Center); d <= int64(hoops[h].Radius)*int64(hoops[h].Radius) && (best < 0 || d < bestD) {
			best, bestD = h, d
		}
	}
	return best
}

// deliver: a carried ball counts as collected the moment its carrier, team t's player i, is in a
// hoop holding its team's city (cities only, never settlements).
func (s *State) deliver(t, i int, av *avatar) {
	if h := s.hoopAt(av.pos); h >= 0 && int(s.owner[h]) == t && s.building[h] == city {
		s.teams[t].res[av.carry]++
		s.log(event{kind: evDeliver, seat: int8(t), av: int8(i), x: int32(h), res: int8(av.carry)})
		av.carry = noRes
	}
}

// inOwnCity reports whether p lies in a hoop holding one of team t's cities: the check a
// carrier needs before asking which hoop it stands in (the nearest centre, when hoops
// overlap). Only the hoops the grid gives for p's cell are looked at.
func (s *State) inOwnCity(p Vec, t int) bool {
	hoops := s.c.field.Hoops
	for m := s.c.spots.hoops.near(p); m != 0; {
		if h := next(&m); int(s.owner[h]) == t && s.building[h] == city && within(p, hoops[h].Center, hoops[h].Radius) {
			return true
		}
	}
	return false
}

// ref names a player as team*maxAvatars+avatar.
type ref int8

func (r ref) team() int   { return int(r) / maxAvatars }
func (r ref) avatar() int { return int(r) % maxAvatars }

func (s *State) at(r ref) *avatar { return &s.teams[r.team()].av[r.avatar()] }

// tags: knights untagged at the start of the tick tag an untagged opponent within reach, using
// positions after the move. All tags land at once, so two knights tagging each other both
// freeze. A tagged carrier's ball goes to its nearest tagger that carries nothing and has not
// collected this round, else back to a pile.
func (s *State) tags() {
	var (
		taggers, targets [maxTeams * maxAvatars]ref
		n                int
	)
	reach2 := int64(s.c.reach) * int64(s.c.reach)
	var free freePlayers // gathered for the first knight tagging the nearest
	gathered := false
	for t := range s.teams[:s.c.teams] {
		tm := &s.teams[t]
		for i := range tm.av[:tm.size] {
			k := &tm.av[i]
			if !k.knight || k.frozen || !k.order.has(flagTag) {
				continue
			}
			target := ref(-1)
			if ts, ta, ok := k.order.tagTarget(); ok {
				if v := &s.teams[ts].av[ta]; !v.frozen && dist2(k.pos, v.pos) <= reach2 {
					target = ref(ts*maxAvatars + ta)
				}
			} else {
				if !gathered {
					free.gather(s)
					gathered = true
				}
				target = free.nearestWithin(k.pos, t, s.c.reach)
			}
			if target >= 0 {
				taggers[n], targets[n] = ref(t*maxAvatars+i), target
				n++
			}
		}
	}
	if n == 0 {
		return
	}
	// Balls as carried before any tag lands; a knight's own state before the tags.
	var carried, knightCarry [maxTeams * maxAvatars]Resource
	var knightCollected [maxTeams * maxAvatars]bool
	for r := ref(0); r < maxTeams*maxAvatars; r++ {
		carried[r], knightCarry[r], knightCollected[r] = s.at(r).carry, s.at(r).carry, s.at(r).collected
	}
	var taken [maxTeams * maxAvatars]bool // for each tag, whether its knight took the ball
	for k := 0; k < n; k++ {
		s.at(targets[k]).frozen = true
	}
	var handled [maxTeams * maxAvatars]bool
	for k := 0; k < n; k++ {
		v := targets[k]
		if handled[v] || carried[v] == noRes {
			continue
		}
		handled[v] = true
		// The eligible taggers of v: the nearest takes the ball, a tie drawn by lot.
		var cand [maxTeams * maxAvatars]int
		var keys [maxTeams * maxAvatars]int64
		m := 0
		for j := k; j < n; j++ {
			if targets[j] == v && knightCarry[taggers[j]] == noRes && !knightCollected[taggers[j]] {
				cand[m], keys[m] = j, dist2(s.at(taggers[j]).pos, s.at(v).pos)
				m++
			}
		}
		ball := carried[v]
		s.at(v).carry = noRes
		if m == 0 {
			s.returnBall(ball)
			continue
		}
		w := cand[s.nearest(keys[:m])]
		kn := s.at(taggers[w])
		kn.carry, kn.collected = ball, true
		taken[w] = true
	}
	for k := 0; k < n; k++ {
		res := noRes
		if taken[k] {
			res = carried[targets[k]]
		}
		s.log(event{kind: evTag, seat: int8(taggers[k].team()), av: int8(taggers[k].avatar()),
			seat2: int8(targets[k].team()), av2: int8(targets[k].avatar()), res: int8(res)})
	}
}

// nearest is the index of the smallest key, ties drawn by lot from the match's random source.
func (s *State) nearest(keys []int64) int {
	best, ties := 0, 1
	for i := 1; i < len(keys); i++ {
		switch {
		case keys[i] < keys[best]:
			best, ties = i, 1
		case keys[i] == keys[best]:
			ties++
		}
	}
	if ties == 1 {
		return best
	}
	pick := s.draw(ties)
	for i := range keys {
		if keys[i] == keys[best] {
			if pick == 0 {
				return i
			}
			pick--
		}
	}
	return best
}

// throws (published ruleset): a carrier passes its ball to a free, empty-handed teammate within
// throw range; when several throw to one catcher, the nearest thrower's ball is caught. The
// one-resource-per-round rule holds for catches: a teammate who has collected this round may
// not catch (the thrower keeps the ball), and a catch counts as the catcher's collection.
func (s *State) throws() {
	r2 := int64(s.c.throwRange) * int64(s.c.throwRange)
	for t := 0; t < s.c.teams; t++ {
		tm := &s.teams[t]
		var empty, caught [maxAvatars]bool
		for i := 0; i < int(tm.size); i++ {
			empty[i] = tm.av[i].carry == noRes
		}
		for c := 0; c < int(tm.size); c++ {
			catcher := &tm.av[c]
			if !empty[c] || catcher.frozen || catcher.collected {
				continue
			}
			var cand [maxAvatars]int
			var keys [maxAvatars]int64
			m := 0
			for i := 0; i < int(tm.size); i++ {
				th := &tm.av[i]
				if th.frozen || th.carry == noRes || caught[i] || !th.order.has(flagThrow) || th.order.throwTo() != c {
					continue
				}
				if d := dist2(th.pos, catcher.pos); d <= r2 {
					cand[m], keys[m] = i, d
					m++
				}
			}
			if m == 0 {
				continue
			}
			w := cand[s.nearest(keys[:m])]
			catcher.carry, catcher.collected, tm.av[w].carry = tm.av[w].carry, true, noRes
			caught[c] = true
			s.log(event{kind: evThrow, seat: int8(t), av: int8(w), seat2: int8(t), av2: int8(c), res: int8(catcher.carry)})
		}
	}
}

// pickupsAndPlacements finds, in one pass over the players (neither changes what the other
// asks of a player), who picks up and who places, then resolves the pickups, then the
// placements.
//
// pickups: a free player with no ball that has not collected this round takes a ball from the
// nearest pile within reach. When a pile has fewer balls than takers, the nearer win, ties by lot.
//
// placements: a free player carrying a settlement marker and ordered to place it, standing in
// a hoop with no building, places it there; one building per hoop, the nearer player winning.
func (s *State) pickupsAndPlacements() {
	var (
		takers   [maxPiles][maxTeams * maxAvatars]ref
		ntakers  [maxPiles]int8
		placers  [maxHoops][maxTeams * maxAvatars]ref
		nplacers [maxHoops]int8
	)
	reach2 := int64(s.c.reach) * int64(s.c.reach)
	piles := s.c.field.Piles
	taking, placing := false, false
	for t := range s.teams[:s.c.teams] {
		tm := &s.teams[t]
		for i := range tm.av[:tm.size] {
			av := &tm.av[i]
			if av.frozen {
				continue
			}
			if av.carry == noRes && !av.collected && av.order.has(flagPick) {
				best, bestD := -1, int64(0)
				for m := s.c.spots.piles.near(av.pos); m != 0; {
					p := next(&m)
					if d := dist2(av.pos, piles[p].Pos); s.piles[p] > 0 && d <= reach2 && (best < 0 || d < bestD) {
						best, bestD = p, d
					}
				}
				if best >= 0 {
					takers[best][ntakers[best]] = ref(t*maxAvatars + i)
					ntakers[best]++
					taking = true
				}
			}
			if av.markers > 0 && av.order.has(flagPlace) {
				if h := s.hoopAt(av.pos); h >= 0 && s.owner[h] < 0 {
					placers[h][nplacers[h]] = ref(t*maxAvatars + i)
					nplacers[h]++
					placing = true
				}
			}
		}
	}
	if taking {
		s.pickups(&takers, &ntakers)
	}
	if placing {
		s.placements(&placers, &nplacers)
	}
}

// pickups resolves the takers found at each pile.
func (s *State) pickups(cand *[maxPiles][maxTeams * maxAvatars]ref, count *[maxPiles]int8) {
	for p := range s.c.field.Piles {
		c := cand[p][:count[p]]
		if len(c) == 0 {
			continue
		}
		if len(c) > int(s.piles[p]) {
			s.contest(c, s.c.field.Piles[p].Pos)
			c = c[:s.piles[p]]
		}
		res := s.c.field.Piles[p].Resource
		for _, r := range c {
			av := s.at(r)
			av.carry, av.collected = res, true
			s.piles[p]--
			s.log(event{kind: evPickup, seat: int8(r.team()), av: int8(r.avatar()), x: int32(p), res: int8(res)})
		}
	}
}

// contest orders players by distance to p, nearest first; equal distances are ordered by lot.
func (s *State) contest(c []ref, p Vec) {
	var keys [maxTeams * maxAvatars]int64
	for i, r := range c {
		keys[i] = dist2(s.at(r).pos, p)
	}
	for i := 1; i < len(c); i++ { // insertion sort: at most 16 players
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
	for i := 0; i < len(c); {
		j := i + 1
		for j < len(c) && keys[j] == keys[i] {
			j++
		}
		for k := j - 1; k > i; k-- { // shuffle the tied run
			m := i + s.draw(k-i+1)
			c[k], c[m] = c[m], c[k]
		}
		i = j
	}
}

// placements resolves the players found placing in each hoop.
func (s *State) placements(cand *[maxHoops][maxTeams * maxAvatars]ref, count *[maxHoops]int8) {
	for h := range s.c.field.Hoops {
		c := cand[h][:count[h]]
		if len(c) == 0 {
			continue
		}
		s.contest(c, s.c.field.Hoops[h].Center)
		r := c[0]
		s.at(r).markers--
		s.owner[h], s.building[h] = int8(r.team()), settlement
		s.log(event{kind: evPlace, seat: int8(r.team()), av: int8(r.avatar()), x: int32(h)})
	}
}

// returnBall puts a ball back on the pile of its resource with the fewest balls, the lowest
// pile id breaking ties (the referee's whim made deterministic), never above capacity.
func (s *State) returnBall(r Resource) {
	best := -1
	for p, spot := range s.c.field.Piles {
		if spot.Resource == r && int(s.piles[p]) < s.c.field.PileCapacity && (best < 0 || s.piles[p] < s.piles[best]) {
			best = p
		}
	}
	if best < 0 {
		panic("fccatan: no room for a ball: the map's piles hold fewer balls than exist")
	}
	s.piles[best]++
	s.log(event{kind: evReturn, res: int8(r), x: int32(best)})
}

// whistle ends the round: every player stops, balls still carried go back to piles, tags and
// collections are forgotten, and the market opens.
func (s *State) whistle() {
	for t := 0; t < s.c.teams; t++ {
		for i := 0; i < int(s.teams[t].size); i++ {
			av := &s.teams[t].av[i]
			av.vel, av.order = Vec{}, Intent{}
			if av.carry != noRes {
				s.returnBall(av.carry)
				av.carry = noRes
			}
			av.frozen, av.collected = false, false
		}
	}
	s.log(event{kind: evWhistle, x: int32(s.round)})
	s.openMarket()
}
