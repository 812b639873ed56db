package wire

import (
	"slices"
	"testing"
	"unsafe"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/fccatan"
	_ "github.com/orrery/orrery/engine/icetraders"
	_ "github.com/orrery/orrery/engine/pantropia"
	_ "github.com/orrery/orrery/engine/planet"

	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
	icetradersv1 "github.com/orrery/orrery/proto/orrery/icetraders/v1"
	pantropiav1 "github.com/orrery/orrery/proto/orrery/pantropia/v1"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// The direct path and the reflective one must put each game's message in the same arm.
func TestWrap_DirectPathMatchesReflection(t *testing.T) {
	for _, m := range []proto.Message{&icetradersv1.Action{}, &planetv1.Action{}, &pantropiav1.Action{}, &fccatanv1.Action{}} {
		slow := &orreryv1.Action{}
		if err := wrap(slow, m); err != nil {
			t.Fatal(err)
		}
		if fast := Action(m); !proto.Equal(fast, slow) || GameAction(fast) != m {
			t.Errorf("%T: direct %v, reflective %v", m, fast, slow)
		}
	}
	for _, m := range []proto.Message{&icetradersv1.Observation{}, &planetv1.Observation{}, &pantropiav1.Observation{}, &fccatanv1.Observation{}} {
		slow := &orreryv1.Observation{}
		if err := wrap(slow, m); err != nil {
			t.Fatal(err)
		}
		if fast := Observation(m); !proto.Equal(fast, slow) || GameObservation(fast) != m {
			t.Errorf("%T: direct %v, reflective %v", m, fast, slow)
		}
	}
	for _, m := range []proto.Message{&icetradersv1.Event{}, &planetv1.Event{}, &pantropiav1.Event{}, &fccatanv1.Event{}} {
		slow := &orreryv1.GameEvent{}
		if err := wrap(slow, m); err != nil {
			t.Fatal(err)
		}
		if fast := GameEvent(m); !proto.Equal(fast, slow) || GameEventOf(fast) != m {
			t.Errorf("%T: direct %v, reflective %v", m, fast, slow)
		}
	}
	if err := wrap(&orreryv1.Action{}, &orreryv1.Result{}); err == nil {
		t.Errorf("a message with no arm was wrapped")
	}
}

// A cached decision is the same message as one built afresh, and a cached notation the
// action's own.
func TestCachedDecision_SameAsFresh(t *testing.T) {
	st, err := engine.New("icetraders", engine.Config{Seats: 3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	cache := new(ActionCache)
	var legal []engine.Action
	for ply := 0; ply < 40 && !st.Terminal(); ply++ {
		seat := st.ToAct(nil)[0]
		legal = st.Legal(seat, legal[:0])
		fresh := Decision(st, seat, legal, int64(ply))
		cached := CachedDecision(st, seat, legal, int64(ply), cache)
		if !proto.Equal(fresh, cached) {
			t.Fatalf("ply %d: cached decision differs", ply)
		}
		a := legal[ply%len(legal)]
		if got, want := cache.Notation(st, a), st.FormatAction(a); got != want {
			t.Errorf("ply %d: cached notation %q, want %q", ply, got, want)
		}
		if err := st.Apply(seat, a); err != nil {
			t.Fatal(err)
		}
	}
}

// Parts built again after Reset draw the decision's text in the last one's memory, and each
// text is still the seat's own, the same as the state renders: for the games that draw into a
// buffer (icetraders, planet) and for those that do not (pantropia, fccatan).
func TestDecisionParts_TextDrawnAgainInItsMemory(t *testing.T) {
	for _, game := range []string{"icetraders", "planet", "pantropia", "fccatan"} {
		st, err := engine.New(game, engine.Config{Seats: 3, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		_, appends := st.(engine.ObservationAppender)
		var p DecisionParts
		var legal []engine.Action
		reused := 0
		for ply := 0; ply < 30 && !st.Terminal(); ply++ {
			seat := st.ToAct(nil)[0]
			legal = st.Legal(seat, legal[:0])
			var before *byte
			if len(p.text) > 0 {
				before = &p.text[:1][0]
			}
			p.Reset()
			d := p.Build(st, seat, legal, int64(ply), nil, nil)
			if want := st.Render(seat); d.GetText() != want {
				t.Fatalf("%s ply %d: text differs from Render:\n%s\nwant\n%s", game, ply, d.GetText(), want)
			}
			if before != nil && unsafe.StringData(d.GetText()) == before {
				reused++
			}
			if err := st.Apply(seat, legal[ply%len(legal)]); err != nil {
				t.Fatal(err)
			}
		}
		if appends && reused == 0 {
			t.Errorf("%s: no text was drawn in the last one's memory", game)
		}
		if !appends && p.text != nil {
			t.Errorf("%s: parts kept a text buffer for a game that draws none", game)
		}
	}
}

// A legal list that recurs (every match opens with the same choices) shares the lists built
// for it the first time; each decision still holds exactly the parts its seat asked for, the
// same as a decision built afresh, whatever list took the slot before.
func TestCachedDecision_RecurringListIsShared(t *testing.T) {
	cache := new(ActionCache)
	opening := func(seed uint64) (engine.State, []engine.Action) {
		st, err := engine.New("icetraders", engine.Config{Seats: 2, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return st, st.Legal(st.ToAct(nil)[0], nil)
	}
	st, legal := opening(1)
	first := CachedDecision(st, 0, legal, 0, cache)
	for _, tc := range []struct {
		name string
		recv *orreryv1.Receive
	}{
		{"everything", nil},
		{"typed only", &orreryv1.Receive{OmitLegalNotation: true}},
		{"notation only", &orreryv1.Receive{OmitLegal: true}},
		{"neither", &orreryv1.Receive{OmitLegal: true, OmitLegalNotation: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, legal := opening(2) // another match, the same opening list
			got := DecisionFor(st, 0, legal, 0, cache, tc.recv)
			if want := DecisionFor(st, 0, legal, 0, nil, tc.recv); !proto.Equal(got, want) {
				t.Errorf("shared decision differs from a fresh one:\n got %v\nwant %v", got, want)
			}
			if len(got.Legal) > 0 && &got.Legal[0] != &first.Legal[0] {
				t.Error("typed list built again, not shared")
			}
			if len(got.LegalNotation) > 0 && &got.LegalNotation[0] != &first.LegalNotation[0] {
				t.Error("notation list built again, not shared")
			}
		})
	}
	// Another list wanting the same slot takes it only once the first is asked for no more
	// than the newcomer; a list is never answered for another.
	h := hashList(legal)
	other := slices.Clone(legal[:len(legal)-1])
	d := &orreryv1.Decision{Legal: make([]*orreryv1.Action, len(other)), LegalNotation: make([]string, len(other))}
	for range 3 { // the first list was asked for three times
		if cache.admit(h, other, d); cache.lists[h%listSlots].Load().legal[0] != legal[0] || len(cache.lists[h%listSlots].Load().legal) != len(legal) {
			t.Fatal("the slot's list, still asked for, was replaced")
		}
	}
	cache.admit(h, other, d)
	if l, _ := cache.listed(legal); l != nil {
		t.Error("the slot's list, asked for no more, was not replaced")
	}
	if l, _ := cache.listed(other); l != nil {
		t.Error("a list answered for another that hashes differently")
	}
	if l := cache.lists[h%listSlots].Load(); !slices.Equal(l.legal, other) {
		t.Error("the newcomer does not hold the slot")
	}
}

// A list a server's seats hold before any decision has listed it (a seat that asks for no
// lists) is shared from its second sight on, and the first decision that lists it then
// builds its lists beside the same shared list.
func TestSharedList_AdmittedAtItsSecondSight(t *testing.T) {
	cache := new(ActionCache)
	st, err := engine.New("icetraders", engine.Config{Seats: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	legal := st.Legal(st.ToAct(nil)[0], nil)
	if got := cache.SharedList(legal, ListHash(legal)); got != nil {
		t.Fatal("shared at its first sight")
	}
	shared := cache.SharedList(legal, ListHash(legal))
	if !slices.Equal(shared, legal) || &shared[0] == &legal[0] {
		t.Fatalf("second sight: shared %v; want a copy of %v", shared, legal)
	}
	d := CachedDecision(st, 0, legal, 0, cache)
	if want := Decision(st, 0, legal, 0); !proto.Equal(d, want) {
		t.Errorf("decision differs from a fresh one:\n got %v\nwant %v", d, want)
	}
	l, _ := cache.listed(legal)
	if l == nil || !l.built || &l.legal[0] != &shared[0] || &l.env[0] != &d.Legal[0] {
		t.Error("the decision's lists were not kept beside the shared list")
	}
}

// A result's reason survives the trip to the wire and back, and one from a newer build is
// read as an abort, never as a normal end.
func TestEngineEndReason_InverseOfEndReason(t *testing.T) {
	for _, r := range []engine.EndReason{engine.EndNormal, engine.EndCap, engine.EndForfeit, engine.EndAborted} {
		if got := EngineEndReason(EndReason(r)); got != r {
			t.Errorf("%v to the wire and back is %v", r, got)
		}
	}
	if got := EngineEndReason(orreryv1.EndReason(99)); got != engine.EndAborted {
		t.Errorf("an unknown reason reads as %v, want aborted", got)
	}
}
