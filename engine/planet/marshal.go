package planet

import (
	"encoding/binary"
	"math"
)

// MarshalBinary writes the complete state, hidden information and random source included, as
// deterministic bytes. The data set is written as its content hash.
func (s *state) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 1024+len(s.events)*8+len(s.cards)*8)
	b = binary.BigEndian.AppendUint64(b, s.d.hash)
	b = append(b, bit(s.opt.beginners), bit(s.opt.mystery), bit(s.opt.rotate), byte(s.opt.ahead), byte(s.opt.lastTurn))
	b = append(b, byte(s.seats), byte(s.turn), byte(s.first), byte(s.picks))
	rng, err := s.rng.AppendBinary(b)
	if err != nil {
		return nil, err
	}
	b = rng
	i16 := func(v int16) { b = binary.BigEndian.AppendUint16(b, uint16(v)) }
	for i := range s.stacks {
		b = append(b, byte(s.stackN[i]))
		for _, t := range s.stacks[i][:s.stackN[i]] {
			i16(t)
		}
	}
	b = append(b, byte(s.displayN))
	for _, t := range s.display[:s.displayN] {
		i16(t)
	}
	b = append(b, byte(s.boxN))
	for _, t := range s.box[:s.boxN] {
		i16(t)
	}
	for seat := 0; seat < int(s.seats); seat++ {
		p := &s.planets[seat]
		b = append(b, byte(p.objective), byte(p.placed))
		for f := range p.tile {
			i16(p.tile[f])
			b = append(b, byte(p.rot[f]))
		}
		for _, h := range p.surface {
			b = append(b, byte(h))
		}
	}
	b = append(b, byte(s.objN))
	for _, o := range s.objDeal[:s.objN] {
		b = append(b, byte(o))
	}
	b = binary.BigEndian.AppendUint32(b, uint32(len(s.cards)))
	for _, c := range s.cards {
		i16(c.id)
		b = append(b, byte(c.turn), bit(c.faceDown), byte(c.owner), bit(c.returned))
		i16(c.seq)
	}
	i16(s.won)
	b = append(b, bit(s.over), byte(s.result.Reason))
	for i := range s.result.Ranks {
		b = append(b, byte(s.result.Ranks[i]))
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(s.result.Scores[i]))
	}
	b = binary.BigEndian.AppendUint32(b, uint32(len(s.events)))
	for _, e := range s.events {
		b = append(b, e.kind, byte(e.turn), byte(e.seat), byte(e.x))
		i16(e.a)
		i16(e.b)
	}
	return b, nil
}

func bit(v bool) byte {
	if v {
		return 1
	}
	return 0
}
