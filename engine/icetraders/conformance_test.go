package icetraders

import (
	"testing"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/enginetest"
)

func TestConformance(t *testing.T) {
	enginetest.Run(t, enginetest.Suite{
		Game:    Name,
		Perturb: Perturb,
		Check:   checkConservation,
	})
}

// A small stash makes repicks common.
func TestConformance_SmallStash(t *testing.T) {
	enginetest.Run(t, enginetest.Suite{
		Game:    Name,
		Seats:   []int{2, 3, 4},
		Seeds:   10,
		Options: map[string]string{OptStash: "3", OptPassRounds: "1"},
		Perturb: Perturb,
		Check:   checkConservation,
	})
}

func TestConformance_RandomAlignment(t *testing.T) {
	enginetest.Run(t, enginetest.Suite{
		Game:    Name,
		Seats:   []int{2, 4, 6},
		Seeds:   4,
		Options: map[string]string{OptAlignment: "random", OptStash: "5", OptTurnCap: "30"},
		Perturb: Perturb,
		Check:   checkConservation,
	})
}

// countPieces counts every piece in play per kind: stash, system markers and ships.
func countPieces(s *State) (n [numKinds]int) {
	for k := range s.stash {
		n[k] += int(s.stash[k])
	}
	for _, l := range s.locs {
		if l.hyper {
			if l.marker.Size != 0 || l.second.Size != 0 {
				n[0] += 1000 // a hyperspace holds no marker
			}
			continue
		}
		n[l.marker.kind()]++
		if l.second.Size != 0 {
			n[l.second.kind()]++
		}
	}
	for _, x := range s.ships {
		n[x.piece.kind()]++
	}
	return n
}

// checkConservation is the piece-conservation rule: every piece is always in the stash, a
// system marker, or a ship, so each kind totals the configured stash size. It also checks the
// invariants the engine relies on.
func checkConservation(t *testing.T, st engine.State) {
	t.Helper()
	s := st.(*State)
	for k, c := range countPieces(s) {
		if c != s.cfg.perKind {
			t.Fatalf("piece conservation: %d %s in play, want %d\n%s", c, pieceOfKind(k), s.cfg.perKind, s.Render(engine.Spectator))
		}
		if s.stash[k] < 0 {
			t.Fatalf("stash of %s is negative", pieceOfKind(k))
		}
	}
	for i := 1; i < len(s.ships); i++ {
		if s.ships[i-1].id >= s.ships[i].id {
			t.Fatalf("ships out of id order")
		}
	}
	for i := 1; i < len(s.locs); i++ {
		if s.locs[i-1].id >= s.locs[i].id {
			t.Fatalf("locations out of id order")
		}
	}
	for _, x := range s.ships {
		if s.locIdx(int(x.loc)) < 0 {
			t.Fatalf("ship s%d is in missing location sys%d", x.id, x.loc)
		}
		if x.owner >= 0 && s.players[x.owner].out {
			t.Fatalf("ship s%d belongs to eliminated seat %d", x.id, x.owner)
		}
	}
	for _, l := range s.locs {
		if l.hyper && s.shipsAt(l.id) == 0 {
			t.Fatalf("empty hyperspace sys%d still open", l.id)
		}
	}
}

// Every [decision] option at its non-default value at once.
func TestConformance_EveryRuleOptionChanged(t *testing.T) {
	opts := map[string]string{OptStash: "3", OptPassRounds: "1"}
	for _, o := range ruleOptions {
		opts[o.name] = o.alt
	}
	enginetest.Run(t, enginetest.Suite{
		Game:    Name,
		Seats:   []int{2, 3, 4},
		Seeds:   10,
		Options: opts,
		Perturb: Perturb,
		Check:   checkConservation,
	})
}
