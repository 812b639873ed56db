package fccatan

import (
	"errors"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
)

// The published ruleset made playable (rules/full-contact-catan.md, 2026-11-30).

func TestPublishedMap_TheDefaultScaledBySixTenthsHoopRadiusUnchanged(t *testing.T) {
	d, p := FieldByName("default"), FieldByName("published")
	if p == nil {
		t.Fatal("no published map")
	}
	if p.Width != 3600 || p.Height != 2400 {
		t.Errorf("published field %dx%d cm, want 3600x2400 (36 m x 24 m)", p.Width, p.Height)
	}
	scale := func(v Vec) Vec { return Vec{v.X * 6 / 10, v.Y * 6 / 10} }
	if len(p.Hoops) != len(d.Hoops) || len(p.Piles) != len(d.Piles) {
		t.Fatalf("published map has %d hoops and %d piles, want %d and %d", len(p.Hoops), len(p.Piles), len(d.Hoops), len(d.Piles))
	}
	for h, dh := range d.Hoops {
		want := Hoop{Center: scale(dh.Center), Radius: dh.Radius, Start: dh.Start}
		if p.Hoops[h] != want {
			t.Errorf("hoop %d: %+v, want %+v", h, p.Hoops[h], want)
		}
	}
	for k, dp := range d.Piles {
		want := PileSpot{Resource: dp.Resource, Pos: scale(dp.Pos), Balls: dp.Balls}
		if p.Piles[k] != want {
			t.Errorf("pile %d: %+v, want %+v", k, p.Piles[k], want)
		}
	}
	if p.PileCapacity != d.PileCapacity || p.BallsPerResource != d.BallsPerResource {
		t.Errorf("published piles hold %d of %d balls, want %d of %d", p.PileCapacity, p.BallsPerResource, d.PileCapacity, d.BallsPerResource)
	}
}

func TestPublishedMap_EachRulesetPlaysOnItsOwnMapByDefault(t *testing.T) {
	for _, tc := range []struct {
		opts map[string]string
		want string
	}{
		{nil, "default"},
		{map[string]string{"ruleset": "seed", "map": "auto"}, "default"},
		{map[string]string{"ruleset": "published"}, "published"},
		{map[string]string{"ruleset": "seed", "map": "published"}, "published"},
	} {
		s := newMatch(t, 4, tc.opts)
		if s.c.field.Name != tc.want {
			t.Errorf("%v: map %q, want %q", tc.opts, s.c.field.Name, tc.want)
		}
		if got := s.c.rulesProto().GetMap(); got != tc.want {
			t.Errorf("%v: the observation names map %q, want %q", tc.opts, got, tc.want)
		}
	}
}

// TestReach_EveryResourceFetchedWithinARound plays the check out on the engine: from every
// start hoop of each ruleset's own map, one player runs at top speed to the nearest pile of
// each resource, picks up, runs home and delivers before the whistle.
func TestReach_EveryResourceFetchedWithinARound(t *testing.T) {
	for _, ruleset := range []string{RulesetSeed, RulesetPublished} {
		opts := map[string]string{"ruleset": ruleset}
		f := newMatch(t, 4, opts).c.field
		for h, hoop := range f.Hoops {
			if !hoop.Start {
				continue
			}
			for r := Resource(0); r < numRes; r++ {
				s := newMatch(t, 4, opts)
				for team, start := 0, 0; team < 4; team++ {
					if team == 0 {
						mustApply(t, s, team, SetupAction(h, 0b11))
						continue
					}
					if start == h {
						start++
					}
					mustApply(t, s, team, SetupAction(start, 0b11))
					start++
				}
				p := f.nearestPileOf(hoop.Center, r)
				pile, home := f.Piles[p].Pos, hoop.Center
				n, delivered := 0, false
				for s.phase == PhaseTick && !delivered {
					// Pick up only near the pile: a path may pass within reach of another.
					in := To(int16(pile.X), int16(pile.Y))
					if within(s.teams[0].av[2].pos, pile, s.c.reach+s.c.step) {
						in = in.PickUp()
					}
					if s.teams[0].av[2].carry == r {
						in = To(int16(home.X), int16(home.Y))
					}
					tick(t, s, only(2, in))
					n++
					delivered = s.teams[0].res[r] == 1
				}
				if !delivered {
					t.Errorf("%s map %s, start hoop %d: no %s delivered from pile %d within the round", ruleset, f.Name, h, r, p)
					continue
				}
				if want := s.c.fetchTicks(h, p, s.c.ticksPerRound); n != want {
					t.Errorf("%s map, start hoop %d, %s: delivered on tick %d, the check says %d", ruleset, h, r, n, want)
				}
				t.Logf("%s ruleset, %s map, start hoop %d: %s from pile %d in %.1f s of %.0f", ruleset, f.Name, h, r, p,
					float64(n*s.c.tickMS)/1000, float64(s.c.ticksPerRound*s.c.tickMS)/1000)
			}
		}
	}
}

func TestReach_MapThatCannotBeFetchedInARoundIsRefused(t *testing.T) {
	for _, tc := range []struct {
		opts map[string]string
		want string // the pile the error names
	}{
		// Issue 11: the published 8-second round on the full-size field.
		{map[string]string{"ruleset": "published", "map": "default"}, "nearest ore pile (pile 6 at 8, 30 m)"},
		{map[string]string{"round_seconds": "10"}, "nearest sheep pile (pile 9 at 14, 36 m)"},
		{map[string]string{"top_speed_cm_s": "300"}, "nearest sheep pile (pile 9 at 14, 36 m)"},
		{map[string]string{"ruleset": "published", "round_seconds": "5"}, "nearest sheep pile (pile 9 at 8.4, 21.6 m) takes 60 ticks (6 s)"},
	} {
		_, err := engine.New("fccatan", engine.Config{Seats: 4, Seed: 1, Options: tc.opts})
		if !errors.Is(err, engine.ErrBadOption) {
			t.Errorf("%v: got %v, want ErrBadOption", tc.opts, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v\nwant it to name the %s", tc.opts, err, tc.want)
		}
	}
	// Just enough: the slowest fetch on the default map fits a round of its length.
	if _, err := engine.New("fccatan", engine.Config{Seats: 4, Seed: 1, Options: map[string]string{"round_seconds": "11"}}); err != nil {
		t.Errorf("an 11-second round on the default map: %v", err)
	}
}

func TestThrow_NoCatchAfterCollectingThisRound(t *testing.T) {
	for _, tc := range []struct {
		name      string
		collected bool
		caught    bool
	}{
		{"a teammate who has not collected catches", false, true},
		{"a teammate who has collected may not catch", true, false},
	} {
		s := started(t, 4, map[string]string{"ruleset": "published"})
		scatter(s)
		hand(s, 0, 2, Ore)
		put(s, 0, 2, 1000, 1000)
		put(s, 0, 3, 1500, 1000)
		s.teams[0].av[3].collected = tc.collected
		tick(t, s, only(2, Stay().Throw(3)))
		catcher, thrower := &s.teams[0].av[3], &s.teams[0].av[2]
		if got := catcher.carry == Ore; got != tc.caught || thrower.carry == Ore == tc.caught {
			t.Errorf("%s: catcher holds ore %v, thrower %v", tc.name, got, thrower.carry == Ore)
		}
		if !catcher.collected {
			t.Errorf("%s: a catch is the catcher's one resource this round", tc.name)
		}
	}
}

func TestThrow_ACatchIsTheCatchersOneResourceThisRound(t *testing.T) {
	s := started(t, 4, map[string]string{"ruleset": "published"})
	scatter(s)
	hand(s, 0, 2, Ore)
	city := s.c.field.Hoops[0].Center // team 0's starting city
	put(s, 0, 2, city.X+500, city.Y)
	put(s, 0, 3, city.X, city.Y)
	tick(t, s, only(2, Stay().Throw(3))) // caught in the city, delivered on the next tick
	tick(t, s)
	if s.teams[0].res[Ore] != 1 || s.teams[0].av[3].carry != noRes {
		t.Fatalf("the caught ball was not delivered: %d ore, catcher carries %v", s.teams[0].res[Ore], s.teams[0].av[3].carry)
	}
	pile := s.c.field.Piles[0].Pos
	put(s, 0, 3, pile.X, pile.Y)
	tick(t, s, only(3, Stay().PickUp()))
	if s.teams[0].av[3].carry != noRes {
		t.Errorf("a player who caught a ball this round picked up a second")
	}
}

func TestOptions_MaxRoundsRenamedRoundCap(t *testing.T) {
	_, err := engine.New("fccatan", engine.Config{Seats: 4, Seed: 1, Options: map[string]string{"max_rounds": "10"}})
	if !errors.Is(err, engine.ErrBadOption) || !strings.Contains(err.Error(), `"round_cap"`) {
		t.Errorf("max_rounds: got %v, want ErrBadOption naming round_cap", err)
	}
	if s := newMatch(t, 4, map[string]string{"round_cap": "10"}); s.c.roundCap != 10 || s.Observe(0).(*fccatanv1.Observation).GetRules().GetMaxRounds() != 10 {
		t.Errorf("round_cap=10: cap %d", s.c.roundCap)
	}
}

func TestOptions_NamesAreLowerSnakeCase(t *testing.T) {
	for _, o := range gameInfo.Options {
		if !engine.IsSnakeCase(o.Name) {
			t.Errorf("option %q is not lower_snake_case", o.Name)
		}
	}
}

func TestOptions_ClientTextInErrorsIsClipped(t *testing.T) {
	huge := strings.Repeat("x", 100000)
	for _, name := range []string{"ruleset", "map", "team_size", "knights", "round_seconds", "clock", huge} {
		_, err := engine.New("fccatan", engine.Config{Seats: 4, Seed: 1, Options: map[string]string{name: huge}})
		if !errors.Is(err, engine.ErrBadOption) {
			t.Errorf("%.20s=huge: got %v, want ErrBadOption", name, err)
			continue
		}
		if len(err.Error()) > 1000 {
			t.Errorf("%.20s=huge: the error quotes %d bytes", name, len(err.Error()))
		}
	}
}

func TestThrow_LegalListsAThrowToTheTeammateNearestACityWhoMayCatch(t *testing.T) {
	s := started(t, 4, map[string]string{"ruleset": "published"})
	scatter(s)
	city := s.c.field.Hoops[0].Center // team 0's starting city
	hand(s, 0, 2, Ore)
	put(s, 0, 2, city.X+900, city.Y+900)
	put(s, 0, 1, city.X+600, city.Y+600) // nearer the city, in range, but has collected
	s.teams[0].av[1].collected = true
	put(s, 0, 3, city.X+700, city.Y+700) // nearer the city, in range, free
	throwsTo := func() []int {
		var out []int
		for _, a := range s.Legal(0, nil) {
			if in := intentOf(&a, 2); in.has(flagThrow) {
				out = append(out, in.throwTo())
			}
		}
		return out
	}
	if got := throwsTo(); len(got) != 1 || got[0] != 3 {
		t.Errorf("throws listed to %v, want only to a3", got)
	}
	s.teams[0].av[3].collected = true
	if got := throwsTo(); len(got) != 0 {
		t.Errorf("throws listed to %v with no teammate free to catch", got)
	}
	seed := started(t, 4, nil)
	hand(seed, 0, 2, Ore)
	for _, a := range seed.Legal(0, nil) {
		if intentOf(&a, 2).has(flagThrow) {
			t.Errorf("the seed ruleset lists a throw: %s", FormatAction(a))
		}
	}
}
