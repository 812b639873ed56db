package icetraders

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

var notationCases = []struct {
	a    engine.Action
	text string
}{
	{ChooseAlignment(Good), "align good"},
	{ChooseAlignment(Evil), "align evil"},
	{ChoosePicks(pc("r3"), pc("b1")), "pick red large, blue small"},
	{Repick(pc("g2")), "repick green medium"},
	{Place(Yellow, 3), "place yellow at sys3"},
	{Move(4, 2), "move s4 to sys2"},
	{Trade(4, pc("b1")), "trade s4 for blue small"},
	{Grow(4), "grow s4"},
	{Add(4, Medium), "add medium from s4"},
	{Attack(4, 7), "attack s7 with s4"},
	{Discover(4), "discover s4"},
	{Sacrifice(12), "sacrifice s12"},
	{Research(1, 2, 3, pc("r3")), "research s1 s2 s3 for red large"},
	{Pass(), "pass"},
	{EndSacrifice(), "end sacrifice"},
	{Decline(), "decline"},
	{Enterprise(pc("b1")), "enterprise blue small"},
	{Revolt(7), "revolt s7"},
	{AddTo(4, Small, 3), "add small from s4 to sys3"},
	{AddTo(4, Large, 0), "add large from s4 to sys0"},
	{AttackInto(4, 7, Red), "attack s7 with s4 into red"},
	{AttackInto(4, 7, Blue), "attack s7 with s4 into blue"},
	{ResearchAt(1, 2, 3, pc("r3"), 5), "research s1 s2 s3 for red large at sys5"},
	{ResearchAt(1, 2, 3, pc("g1"), maxTargetID), "research s1 s2 s3 for green small at sys32766"},
}

func TestNotation_RoundTrips(t *testing.T) {
	for _, tc := range notationCases {
		if got := FormatAction(tc.a); got != tc.text {
			t.Errorf("FormatAction = %q, want %q", got, tc.text)
		}
		back, err := ParseAction(tc.text)
		if err != nil || back != tc.a {
			t.Errorf("ParseAction(%q) = %v, %v", tc.text, back, err)
		}
		m := ActionToProto(tc.a)
		wire, _ := proto.Marshal(m)
		m2 := &pb.Action{}
		if err := proto.Unmarshal(wire, m2); err != nil {
			t.Fatal(err)
		}
		if back, err := ActionFromProto(m2); err != nil || back != tc.a {
			t.Errorf("proto round trip of %q: %v, %v", tc.text, back, err)
		}
	}
}

func TestNotation_RejectsGarbage(t *testing.T) {
	for _, text := range []string{"", "fly s1", "move s1", "move s1 to s2", "move sys1 to sys2", "trade s1 for red", "pick red large",
		"align neutral", "grow s-1", "grow s99999", "grow s01", "pass now", "end", "add huge from s1", "attack s1 s2",
		"add small from s1 to", "add small from s1 to s3", "add small from s1 to sys32767", "add small from s1 at sys3",
		"attack s1 with s2 into", "attack s1 with s2 into black", "attack s1 with s2 into blue small",
		"research s1 s2 s3 for red large at", "research s1 s2 s3 for red large at sys-1", "research s1 s2 s3 for red large to sys1"} {
		if a, err := ParseAction(text); !errors.Is(err, engine.ErrBadNotation) {
			t.Errorf("ParseAction(%q) = %v, %v; want ErrBadNotation", text, a, err)
		}
	}
}

func TestActionFromProto_RejectsMalformed(t *testing.T) {
	for _, m := range []proto.Message{
		nil,
		(*pb.Action)(nil),
		&emptypb.Empty{},
		&pb.Action{},
		&pb.Action{Kind: &pb.Action_ChooseAlignment{ChooseAlignment: &pb.ChooseAlignment{}}},
		&pb.Action{Kind: &pb.Action_Repick{Repick: &pb.Repick{}}},
		&pb.Action{Kind: &pb.Action_Repick{Repick: &pb.Repick{Piece: &pb.Piece{Color: pb.Color_COLOR_RED}}}},
		&pb.Action{Kind: &pb.Action_Trade{Trade: &pb.Trade{ShipId: 1, Piece: &pb.Piece{Color: 9, Size: pb.Size_SIZE_SMALL}}}},
		&pb.Action{Kind: &pb.Action_Move{Move: &pb.Move{ShipId: -1}}},
		&pb.Action{Kind: &pb.Action_Move{Move: &pb.Move{ShipId: 1 << 20}}},
		&pb.Action{Kind: &pb.Action_Research{Research: &pb.Research{ShipIds: []int32{1, 2}, Piece: &pb.Piece{Color: pb.Color_COLOR_RED, Size: pb.Size_SIZE_LARGE}}}},
		&pb.Action{Kind: &pb.Action_AddShip{AddShip: &pb.AddShip{ShipId: 1}}},
		&pb.Action{Kind: &pb.Action_AddShip{AddShip: &pb.AddShip{ShipId: 1, Size: pb.Size_SIZE_SMALL, SystemId: proto.Int32(-1)}}},
		&pb.Action{Kind: &pb.Action_AddShip{AddShip: &pb.AddShip{ShipId: 1, Size: pb.Size_SIZE_SMALL, SystemId: proto.Int32(maxTargetID + 1)}}},
		&pb.Action{Kind: &pb.Action_Attack{Attack: &pb.Attack{ShipId: 1, TargetId: 2, ReduceTo: 9}}},
		&pb.Action{Kind: &pb.Action_Research{Research: &pb.Research{ShipIds: []int32{1, 2, 3}, Piece: &pb.Piece{Color: pb.Color_COLOR_RED, Size: pb.Size_SIZE_LARGE}, SystemId: proto.Int32(-2)}}},
		&pb.Action{Kind: &pb.Action_ChoosePicks{ChoosePicks: &pb.ChoosePicks{First: &pb.Piece{Color: pb.Color_COLOR_RED, Size: pb.Size_SIZE_LARGE}}}},
	} {
		if a, err := ActionFromProto(m); !errors.Is(err, engine.ErrIllegalAction) {
			t.Errorf("ActionFromProto(%v) = %v, %v; want ErrIllegalAction", m, a, err)
		}
	}
}

func TestApply_UnusedArgumentsMustBeZero(t *testing.T) {
	b := newBoard(t, 2)
	a := b.sys("r3")
	b.ship(a, 0, "g1")
	b.ship(a, 1, "b3")
	x := Pass()
	x.Arg[3] = 1
	if err := b.Apply(0, x); !errors.Is(err, engine.ErrIllegalAction) {
		t.Errorf("pass with an argument: %v", err)
	}
	y := Grow(0)
	y.Arg[14] = 2
	if err := b.Apply(0, y); !errors.Is(err, engine.ErrIllegalAction) {
		t.Errorf("grow with a stray argument: %v", err)
	}
}

func FuzzParseAction(f *testing.F) {
	for _, tc := range notationCases {
		f.Add(tc.text)
	}
	f.Add("move s1 to sys99999")
	f.Add("PICK Red Large , Blue Small")
	f.Fuzz(func(t *testing.T, text string) {
		a, err := ParseAction(text)
		if err != nil {
			if !errors.Is(err, engine.ErrBadNotation) {
				t.Fatalf("error %v wraps no ErrBadNotation", err)
			}
			return
		}
		canon := FormatAction(a)
		back, err := ParseAction(canon)
		if err != nil || back != a {
			t.Fatalf("%q -> %v -> %q -> %v, %v", text, a, canon, back, err)
		}
		if _, err := ActionFromProto(ActionToProto(a)); err != nil {
			t.Fatalf("parsed %q does not survive the proto: %v", text, err)
		}
	})
}
