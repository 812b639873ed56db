package houseseats

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/sdk"
	_ "github.com/orrery/orrery/engine/games"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestMain checks that the bots' goroutines end with their seats.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// arena is a server without a store, with built-in bots for CreateMatch's bot seats if
// withBots, and a client of it over loopback.
func arena(t *testing.T, withBots bool) (orreryv1.ArenaServiceClient, *grpc.ClientConn) {
	t.Helper()
	s := serve(t, nil, withBots)
	return s.client, s.conn
}

func TestCreateMatch_BotsPlayTheirSeatsToTheEnd(t *testing.T) {
	client, conn := arena(t, true)
	games, err := client.ListGames(context.Background(), &orreryv1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games.GetGames() {
		if len(g.GetBots()) == 0 {
			t.Errorf("ListGames offers no built-in bot for %s", g.GetName())
		}
	}
	seed := uint64(3)
	created, err := client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: "icetraders", Seats: 3, Seed: &seed,
		Bots: []*orreryv1.SeatBot{{Seat: 0, Bot: "greedy"}, {Seat: 2, Bot: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(created.GetSeats()) != 1 || created.GetSeats()[0].GetSeat() != 1 {
		t.Fatalf("the response gives tokens %v: want seat 1's only", created.GetSeats())
	}
	// The one seat left is a client's: it plays, and the server's bots play the rest.
	bot, _ := builtin.New("icetraders", "random", 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ended, err := sdk.Play(ctx, conn, created.GetSeats()[0].GetToken(), bot, sdk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := ended.GetResult(); r.GetReason() != orreryv1.EndReason_END_REASON_NORMAL {
		t.Errorf("the match ended %v: want a normal end, the bots playing their seats", r.GetReason())
	}
	m, err := client.GetMatch(context.Background(), &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, si := range m.GetMatch().GetSeatInfo() {
		names = append(names, si.GetName())
	}
	if len(names) != 3 || names[0] != "greedy" || names[2] != "random" {
		t.Errorf("seat names %q: a bot's seat is named for its bot", names)
	}
}

func TestCreateMatch_RefusesBadBotSeats(t *testing.T) {
	client, _ := arena(t, true)
	bare, _ := arena(t, false)
	cases := []struct {
		name   string
		client orreryv1.ArenaServiceClient
		bots   []*orreryv1.SeatBot
		code   codes.Code
	}{
		{"unknown bot", client, []*orreryv1.SeatBot{{Seat: 1, Bot: "deep-blue"}}, codes.InvalidArgument},
		{"seat out of range", client, []*orreryv1.SeatBot{{Seat: 2, Bot: "greedy"}}, codes.InvalidArgument},
		{"negative seat", client, []*orreryv1.SeatBot{{Seat: -1, Bot: "greedy"}}, codes.InvalidArgument},
		{"seat twice", client, []*orreryv1.SeatBot{{Seat: 1, Bot: "greedy"}, {Seat: 1, Bot: "random"}}, codes.InvalidArgument},
		{"every seat a bot", client, []*orreryv1.SeatBot{{Seat: 0, Bot: "greedy"}, {Seat: 1, Bot: "random"}}, codes.InvalidArgument},
		{"a server without bots", bare, []*orreryv1.SeatBot{{Seat: 1, Bot: "greedy"}}, codes.FailedPrecondition},
		// A billion seats cost nothing before Create refuses them.
		{"a billion seats", client, []*orreryv1.SeatBot{{Seat: 1, Bot: "greedy"}}, codes.InvalidArgument},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seats := int32(2)
			if c.name == "a billion seats" {
				seats = 1 << 30
			}
			_, err := c.client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: "icetraders", Seats: seats, Bots: c.bots})
			if status.Code(err) != c.code {
				t.Errorf("got %v, want %v", err, c.code)
			}
		})
	}
}
