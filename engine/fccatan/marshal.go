package fccatan

import "encoding/binary"

// MarshalBinary is the complete state, hidden information and the random source included, as
// deterministic bytes: the options' digest, then every field in a fixed order.
func (s *State) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 1024+24*len(s.events)+16*len(s.offers))
	v := func(x int64) { b = binary.AppendVarint(b, x) }
	c := s.c
	b = append(b, c.ruleset...)
	b = append(b, 0)
	b = append(b, c.field.Name...)
	b = append(b, 0)
	if c.wall {
		b = append(b, 'w') // never a varint of the team count, so lockstep bytes are unchanged
	}
	for _, x := range []int{c.teams, c.knights, c.ticksPerRound, c.tickMS, int(c.speed), int(c.reach), int(c.step), c.winVP,
		c.roundCap, c.idleMarkets, c.tradeSteps, int(c.throwRange), c.marketMS, c.choiceMS} {
		v(int64(x))
	}
	v(int64(s.phase))
	v(int64(s.round))
	v(int64(s.tick))
	v(int64(s.setupSeat))
	v(int64(s.tradeStep))
	for t := 0; t < c.teams; t++ {
		tm := &s.teams[t]
		v(int64(tm.size))
		for i := 0; i < maxAvatars; i++ {
			av := &tm.av[i]
			for _, x := range []int32{av.pos.X, av.pos.Y, av.vel.X, av.vel.Y, int32(av.order.X), int32(av.order.Y), int32(av.order.Flags), int32(av.carry), int32(av.markers)} {
				v(int64(x))
			}
			b = append(b, flags(av.collected, av.frozen, av.knight))
		}
		for _, x := range tm.res {
			v(int64(x))
		}
		v(int64(tm.vp))
		v(int64(tm.start))
		v(int64(tm.ncards))
		for _, x := range tm.cards {
			v(int64(x))
		}
		b = append(b, flags(tm.done))
		b = appendAction(b, tm.pending.Kind, tm.pending.Arg)
		b = appendAction(b, tm.decl.Kind, tm.decl.Arg)
		v(int64(tm.nbought))
		for _, x := range tm.bought {
			v(int64(x))
		}
		v(int64(tm.discard))
	}
	for _, x := range s.piles {
		v(int64(x))
	}
	for h := range s.owner {
		v(int64(s.owner[h]))
		v(int64(s.building[h]))
	}
	for _, x := range s.deck {
		v(int64(x))
	}
	v(int64(s.deckTop))
	v(int64(len(s.offers)))
	for _, o := range s.offers {
		v(int64(o.step))
		v(int64(o.from))
		v(int64(o.to))
		for r := 0; r < numRes; r++ {
			v(int64(o.give[r]))
			v(int64(o.want[r]))
		}
		v(int64(o.status))
	}
	v(int64(s.stepOffers))
	v(int64(s.cardK))
	v(int64(s.cardSeat))
	v(int64(s.pendingCard))
	v(int64(s.pendingSeat))
	v(int64(s.idle))
	b = append(b, flags(s.boughtAny))
	v(int64(s.reason))
	rng, err := s.rng.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b = append(b, rng...)
	v(int64(len(s.events)))
	for _, e := range s.events {
		b = append(b, e.kind, byte(e.seat), byte(e.av), byte(e.seat2), byte(e.av2), byte(e.res))
		v(int64(e.round))
		v(int64(e.tick))
		v(int64(e.x))
		v(int64(e.y))
		for _, n := range e.n {
			b = append(b, byte(n))
		}
	}
	return b, nil
}

func appendAction(b []byte, kind uint16, arg [15]int16) []byte {
	b = binary.AppendUvarint(b, uint64(kind))
	for _, x := range arg {
		b = binary.AppendVarint(b, int64(x))
	}
	return b
}

func flags(bs ...bool) byte {
	var f byte
	for i, x := range bs {
		if x {
			f |= 1 << i
		}
	}
	return f
}
