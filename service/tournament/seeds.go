package tournament

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
)

// seeds derives everything random in a tournament from its seed, one way: each match's seed
// is HMAC-SHA256 keyed with the tournament's seed over the match's round and set, and the
// draw's random streams are too, so neither a revealed match seed nor the published schedule
// gives the tournament's seed or any other match's seed (a withheld duplicate set's
// included). The tournament's seed itself is shown only once the tournament has finished;
// with it anyone recomputes every seed and draw.
//
// legacy is the derivation of tournaments drawn before this one (SplitMix64 of the seed plus
// the set, which runs backwards): a Swiss tournament already running when the server was
// upgraded redraws its stored rounds with it (run.redraw).
type seeds struct {
	tournament uint64
	legacy     bool
}

// Labels keep the derivation's uses apart.
const (
	labelMatch        = "orrery tournament v1: match seed"
	labelCombinations = "orrery tournament v1: round robin combinations"
	labelOrder        = "orrery tournament v1: round robin seating"
	labelSwiss        = "orrery tournament v1: swiss order"
)

// derive is the first 8 bytes of HMAC-SHA256(tournament seed, label ‖ a ‖ b).
func (s seeds) derive(label string, a, b uint64) uint64 {
	var key [8]byte
	binary.BigEndian.PutUint64(key[:], s.tournament)
	mac := hmac.New(sha256.New, key[:])
	mac.Write([]byte(label))
	var ab [16]byte
	binary.BigEndian.PutUint64(ab[:8], a)
	binary.BigEndian.PutUint64(ab[8:], b)
	mac.Write(ab[:])
	return binary.BigEndian.Uint64(mac.Sum(nil))
}

// match is the seed of the matches of set set in round round (a round robin's round is 0).
func (s seeds) match(round, set int) uint64 {
	if s.legacy {
		if round == 0 {
			return mix(s.tournament + uint64(set))
		}
		return mix(s.tournament ^ uint64(round)<<32 + uint64(set))
	}
	return s.derive(labelMatch, uint64(round), uint64(set))
}

// draw is a random stream for one step of the draw, told apart by its label, a and b.
func (s seeds) draw(label string, a, b uint64) *rand.Rand {
	if s.legacy {
		return rand.New(rand.NewPCG(s.tournament^a, b))
	}
	return rand.New(rand.NewPCG(s.derive(label, a, b), b))
}
