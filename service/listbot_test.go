package service

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// botDirectory is a fixed BotIdentities: the ladder's registered and house bots.
type botDirectory map[string]int64

func (d botDirectory) BotID(name string) (int64, bool) { id, ok := d[name]; return id, ok }

// ListMatches by bot lists the matches a bot played, by its identity: a seat that merely
// took the bot's name (here before the bot registered, so before its name was reserved) is
// not listed, while seat_name, free text, lists both.
func TestListMatches_ByBotIsByIdentityNotName(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, Config{Store: memStore(t), Bots: botDirectory{"alice": 7, "house-greedy": 9}})
	impostor := h.create(&orreryv1.CreateMatchRequest{Seats: 2, SeatNames: []string{"alice", "bob"}})
	played, _, _, err := h.srv.Create(ctx, MatchSpec{Game: testGame, Seats: 2, Names: []string{"house-greedy", "alice"}, Bots: []int64{9, 7}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		req  *orreryv1.ListMatchesRequest
		want []string
	}{
		{"by bot", &orreryv1.ListMatchesRequest{Bot: "alice"}, []string{played}},
		{"by house bot", &orreryv1.ListMatchesRequest{Bot: "house-greedy"}, []string{played}},
		{"by seat name", &orreryv1.ListMatchesRequest{SeatName: "alice"}, []string{played, impostor.GetMatchId()}},
		{"by bot and seat name", &orreryv1.ListMatchesRequest{Bot: "alice", SeatName: "bob"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := h.client.ListMatches(ctx, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, m := range got.GetMatches() {
				ids = append(ids, m.GetMatchId())
			}
			if len(ids) != len(tt.want) || (len(ids) > 0 && ids[0] != tt.want[0]) || (len(ids) > 1 && ids[1] != tt.want[1]) {
				t.Errorf("ListMatches(%v) = %v, want %v", tt.req, ids, tt.want)
			}
		})
	}
	if _, err := h.client.ListMatches(ctx, &orreryv1.ListMatchesRequest{Bot: "carol"}); status.Code(err) != codes.NotFound {
		t.Errorf("ListMatches of no such bot: %v, want NotFound", err)
	}
	// A client cannot seat a bot: CreateMatch has no field for it, and MatchSpec.Bots is
	// checked against the seats.
	if _, _, _, err := h.srv.Create(ctx, MatchSpec{Game: testGame, Seats: 2, Bots: []int64{1, 2, 3}}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("three bots for two seats: %v", err)
	}
}

// Without a store (and so without a ladder) no bot is known.
func TestListMatches_ByBotWithoutAStore(t *testing.T) {
	h := newHarness(t, Config{})
	if _, err := h.client.ListMatches(context.Background(), &orreryv1.ListMatchesRequest{Bot: "alice"}); status.Code(err) != codes.NotFound {
		t.Errorf("ListMatches by bot without a store: %v, want NotFound", err)
	}
}
