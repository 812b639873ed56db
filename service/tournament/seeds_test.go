package tournament

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"testing"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// unmix inverts SplitMix64 (mix): each xor-shift and odd multiplication undoes.
func unmix(x uint64) uint64 {
	x = x ^ x>>31 ^ x>>62
	x *= 0x319642b2d24d8ec3 // inverse of 0x94d049bb133111eb
	x = x ^ x>>27 ^ x>>54
	x *= 0x96de1b173f119089 // inverse of 0xbf58476d1ce4e5b9
	x = x ^ x>>30 ^ x>>60
	return x - 0x9e3779b97f4a7c15
}

// The reproduction: each match seed was SplitMix64(tournament seed + set), so from the
// first finished match's revealed seed anyone computed the tournament seed and every other
// match's seed, withheld duplicate sets included. The attack now finds nothing: the seeds are
// HMAC-SHA256 of the tournament's seed and the match's round and set.
func TestSeeds_NotPredictableFromARevealedOne(t *testing.T) {
	if mix(unmix(12345)) != 12345 || unmix(mix(777)) != 777 {
		t.Fatal("unmix does not invert mix")
	}
	const tournamentSeed = 20261201
	for _, c := range []struct {
		name    string
		lineups []Lineup
	}{
		{"round robin", RoundRobin(6, 2, 40, true, tournamentSeed)},
		{"swiss", SwissRound(3, make([]float64, 8), make([]int, 8), map[[2]int]int{}, 2, 0, true, tournamentSeed)},
	} {
		t.Run(c.name, func(t *testing.T) {
			revealed := c.lineups[0]
			// The attack: run the revealed seed backwards to the tournament's, then forwards.
			guess := unmix(revealed.Seed) - uint64(revealed.Set)
			if c.name == "swiss" {
				guess = (unmix(revealed.Seed) - uint64(revealed.Set)) ^ uint64(revealed.Round)<<32
			}
			if guess == tournamentSeed {
				t.Fatalf("the tournament's seed %d follows from match 0's seed %d", guess, revealed.Seed)
			}
			predicted := 0
			for _, l := range c.lineups {
				if l.Set == revealed.Set {
					continue
				}
				if mix(guess+uint64(l.Set)) == l.Seed || mix(guess^uint64(l.Round)<<32+uint64(l.Set)) == l.Seed || l.Seed == revealed.Seed {
					predicted++
				}
			}
			if predicted > 0 {
				t.Errorf("%d other matches' seeds predicted from one revealed seed", predicted)
			}
		})
	}
}

// With the tournament's seed (revealed when it has finished) anyone recomputes every match's
// seed: HMAC-SHA256 keyed with its 8 big-endian bytes, over the label, the round and the set.
func TestSeeds_RecomputedFromTheTournamentsSeed(t *testing.T) {
	const tournamentSeed = 99
	want := func(round, set int) uint64 {
		var key [8]byte
		binary.BigEndian.PutUint64(key[:], tournamentSeed)
		mac := hmac.New(sha256.New, key[:])
		mac.Write([]byte("orrery tournament v1: match seed"))
		var ab [16]byte
		binary.BigEndian.PutUint64(ab[:8], uint64(round))
		binary.BigEndian.PutUint64(ab[8:], uint64(set))
		mac.Write(ab[:])
		return binary.BigEndian.Uint64(mac.Sum(nil))
	}
	for _, l := range RoundRobin(4, 2, 12, false, tournamentSeed) {
		if l.Seed != want(0, l.Set) {
			t.Errorf("set %d: seed %d, want HMAC %d", l.Set, l.Seed, want(0, l.Set))
		}
	}
	for _, l := range SwissRound(2, make([]float64, 6), make([]int, 6), map[[2]int]int{}, 2, 0, false, tournamentSeed) {
		if l.Seed != want(2, l.Set) {
			t.Errorf("round 2 set %d: seed %d, want HMAC %d", l.Set, l.Seed, want(2, l.Set))
		}
	}
}

// A Swiss tournament drawn before the one-way seeds, running when the server is upgraded,
// still redraws as stored, and draws its next round with the derivation it started with.
func TestSwiss_DrawnBeforeOneWaySeedsRedrawsAsStored(t *testing.T) {
	seed := uint64(5)
	spec := &orreryv1.CreateTournamentRequest{Game: testGame, Format: orreryv1.TournamentFormat_TOURNAMENT_FORMAT_SWISS,
		Seats: 2, Games: 8, Parallel: 1, Seed: &seed}
	entrants := []entrant{{Name: "a", Builtin: "random"}, {Name: "b", Builtin: "random"}, {Name: "c", Builtin: "random"}, {Name: "d", Builtin: "random"}}
	old := newRun("t1", spec, entrants, time.Now())
	old.legacySeeds = true
	old.drawFirst()
	for _, sl := range old.slots {
		sl.ranks, sl.ended = []int{1, 2}, true
	}
	old.drawSwissLocked()
	if old.slots[0].seed != mix(seed) {
		t.Fatalf("the legacy draw's first seed %d is not SplitMix64(seed)", old.slots[0].seed)
	}
	loaded := newRun("t1", spec, entrants, time.Now())
	for _, sl := range old.slots {
		c := *sl
		loaded.slots = append(loaded.slots, &c)
	}
	if err := loaded.redraw(); err != nil || !loaded.legacySeeds {
		t.Fatalf("redraw: %v, legacy %v", err, loaded.legacySeeds)
	}
	if len(loaded.slots) != len(old.slots) {
		t.Fatalf("%d slots after redraw, %d stored", len(loaded.slots), len(old.slots))
	}
	for i := range old.slots {
		if !slices.Equal(old.slots[i].entrants, loaded.slots[i].entrants) || old.slots[i].seed != loaded.slots[i].seed {
			t.Errorf("slot %d: stored %v, redrawn %v", i, old.slots[i], loaded.slots[i])
		}
	}
}
