package icetraders

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// TestCopyFrom_IsAClone plays random games and, at every step, copies the state into one
// reused scratch state: the copy marshals as the state does, and playing on in the copy
// leaves the state alone.
func TestCopyFrom_IsAClone(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	scratch := &State{}
	var legal []engine.Action
	steps := 0
	for seed := uint64(1); seed <= 20; seed++ {
		st, _ := engine.New(Name, engine.Config{Seats: 2 + int(seed%3), Seed: seed})
		s := st.(*State)
		for !s.Terminal() {
			seat := s.ToAct(nil)[0]
			legal = s.Legal(seat, legal[:0])
			want, _ := s.MarshalBinary()
			scratch.CopyFrom(s)
			if got, _ := scratch.MarshalBinary(); !bytes.Equal(got, want) {
				t.Fatalf("seed %d: the copy differs from the state", seed)
			}
			if err := scratch.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
			if after, _ := s.MarshalBinary(); !bytes.Equal(after, want) {
				t.Fatalf("seed %d: playing in the copy changed the state", seed)
			}
			if err := s.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
			steps++
		}
	}
	if steps < 200 {
		t.Errorf("only %d steps played", steps)
	}
}

// TestBotView_MatchesObservation checks the view's ships, locations, stash and players
// against the observation of a played-out mid-game.
func TestBotView_MatchesObservation(t *testing.T) {
	st, _ := engine.New(Name, engine.Config{Seats: 4, Seed: 5})
	s := st.(*State)
	r := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 120 && !s.Terminal(); i++ {
		seat, a := survivorPick(s, r)
		_ = s.Apply(seat, a)
	}
	o := s.Observe(0).(*pb.Observation)
	ships := map[int16]ShipInfo{}
	for _, x := range s.AppendShips(nil) {
		ships[x.ID] = x
	}
	locs := map[int16]LocInfo{}
	for _, l := range s.AppendLocations(nil) {
		locs[l.ID] = l
	}
	n := 0
	check := func(loc int32, hyper bool, marker, second *pb.Piece, in []*pb.Ship) {
		l, ok := locs[int16(loc)]
		if !ok || l.Hyper != hyper || pieceProto(l.Marker).GetColor() != marker.GetColor() || pieceProto(l.Second).GetSize() != second.GetSize() {
			t.Errorf("location %d: view %+v", loc, l)
		}
		for _, x := range in {
			n++
			v := ships[int16(x.GetId())]
			if v.Loc != int16(loc) || int32(v.Owner) != x.GetOwner() || pieceProto(v.Piece).GetColor() != x.GetPiece().GetColor() || int32(v.Piece.Size) != int32(x.GetPiece().GetSize()) {
				t.Errorf("ship %d: view %+v, observed %v", x.GetId(), v, x)
			}
		}
	}
	for _, sys := range o.GetSystems() {
		check(sys.GetId(), false, sys.GetMarker(), sys.GetSecondMarker(), sys.GetShips())
	}
	for _, h := range o.GetHyperspaces() {
		check(h.GetId(), true, nil, nil, h.GetShips())
	}
	if n != len(ships) || len(o.GetSystems())+len(o.GetHyperspaces()) != len(locs) {
		t.Errorf("%d ships and %d locations observed; the view has %d and %d", n, len(o.GetSystems())+len(o.GetHyperspaces()), len(ships), len(locs))
	}
	for k, sc := range o.GetStash() {
		if got := s.StashCount(pieceOfKind(k)); got != int(sc.GetCount()) {
			t.Errorf("stash %s: %d, observed %d", pieceOfKind(k), got, sc.GetCount())
		}
	}
	for i, p := range o.GetPlayers() {
		placed, everLarge, out := s.PlayerStatus(i)
		if placed != p.GetPlacedFirstShip() || everLarge != p.GetEverLarge() || out != p.GetEliminated() {
			t.Errorf("seat %d: %v %v %v, observed %v", i, placed, everLarge, out, p)
		}
	}
}
