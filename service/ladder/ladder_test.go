package ladder

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/ladder"
	"github.com/orrery/orrery/bots/random"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestEndToEnd_ExternalBotRegistersQueuesAndIsRated is the ladder as a bot author meets it,
// over gRPC only: register, connect once with the key, play several matches on one stream,
// and find the ratings, the leaderboard, the match history and the replays.
func TestEndToEnd_ExternalBotRegistersQueuesAndIsRated(t *testing.T) {
	e := newEnv(t, nil, quick(Config{}), "")
	ctx := context.Background()
	key := e.register("alpha")

	const matches = 3
	var mu sync.Mutex
	var joined []*orreryv1.Joined
	err := ladder.Run(ctx, e.conn, ladder.Options{
		APIKey: key, Games: []string{testGame}, Matches: matches,
		NewBot: func(j *orreryv1.Joined) (bots.Bot, error) {
			mu.Lock()
			joined = append(joined, j)
			mu.Unlock()
			return random.New(uint64(len(j.GetMatchId()))), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(joined) != matches {
		t.Fatalf("joined %d matches, want %d", len(joined), matches)
	}

	eventually(t, "three rated matches", func() bool {
		r := e.bot("alpha").GetRatings()
		return len(r) == 1 && r[0].GetGames() == matches
	})
	got := e.bot("alpha")
	r := got.GetRatings()[0]
	if r.GetGame() != testGame || r.GetSigma() >= 25.0/3 || r.GetScore() != r.GetMu()-3*r.GetSigma() {
		t.Errorf("rating %v: want %s with sigma below a newcomer's and score mu - 3 sigma", r, testGame)
	}
	if len(got.GetRecent()) != matches {
		t.Errorf("%d recent matches, want %d", len(got.GetRecent()), matches)
	}
	for _, m := range got.GetRecent() {
		if m.GetSeats() != 4 || m.GetRank() < 1 || m.GetMuAfter() == m.GetMuBefore() && m.GetSigmaAfter() == m.GetSigmaBefore() {
			t.Errorf("rated match %v: want 4 seats, a rank and a moved rating", m)
		}
	}

	board, err := e.ladder.GetLeaderboard(ctx, &orreryv1.GetLeaderboardRequest{Game: testGame})
	if err != nil {
		t.Fatal(err)
	}
	var entry *orreryv1.LeaderboardEntry
	for i, en := range board.GetEntries() {
		if i > 0 && en.GetScore() > board.GetEntries()[i-1].GetScore() {
			t.Errorf("leaderboard not sorted by score at %d", i)
		}
		if en.GetBot() == "alpha" {
			entry = en
		}
	}
	if entry == nil || entry.GetGames() != matches || entry.GetHouse() {
		t.Fatalf("alpha on the leaderboard: %v", entry)
	}
	// The rating with its doubt: mu, sigma, the score they give, still provisional after
	// three matches (sigma above 6), games and wins, as the bot's own ratings say.
	if entry.GetMu() != r.GetMu() || entry.GetSigma() != r.GetSigma() || entry.GetScore() != r.GetMu()-3*r.GetSigma() ||
		!entry.GetProvisional() || !r.GetProvisional() || entry.GetWins() != r.GetWins() || entry.GetWins() > matches {
		t.Errorf("alpha's entry %v against its rating %v", entry, r)
	}

	// Seat names are bot names: the arena's match history filters by them, and every
	// ladder match links to its replay.
	// (The ladder may have seated alpha once more before it left; that match is running.)
	list, err := e.client.ListMatches(ctx, &orreryv1.ListMatchesRequest{SeatName: "alpha", Status: orreryv1.MatchStatus_MATCH_STATUS_FINISHED})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.GetMatches()) != matches {
		t.Errorf("ListMatches(seat_name=alpha, finished) = %d matches, want %d", len(list.GetMatches()), matches)
	}
	rep, err := e.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: entry.GetLastMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, s := range rep.GetMatch().GetSeatInfo() {
		names = append(names, s.GetName())
	}
	if !slices.Contains(names, "alpha") || !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "house-") }) {
		t.Errorf("last match seats %v: want alpha and house bots", names)
	}
	// Run returns once the client has closed its side; the server sees the stream end a
	// moment later.
	eventually(t, "alpha shown not connected once it left", func() bool { return !e.bot("alpha").GetBot().GetConnected() })
}

func TestAuth(t *testing.T) {
	const admin = "s3cret-admin"
	e := newEnv(t, nil, quick(Config{FillAfter: time.Hour}), admin)
	ctx := context.Background()
	adminCtx := withKey(ctx, admin)
	reg := func(ctx context.Context, name string) (string, error) {
		r, err := e.ladder.RegisterBot(ctx, &orreryv1.RegisterBotRequest{Name: name})
		return r.GetApiKey(), err
	}
	keyA, err := reg(adminCtx, "bot-a")
	if err != nil {
		t.Fatal(err)
	}
	keyB, err := reg(adminCtx, "bot-b")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		call func() error
		want codes.Code
	}{
		{"register without the admin key", func() error { _, err := reg(ctx, "bot-c"); return err }, codes.PermissionDenied},
		{"register with a bot's key", func() error { _, err := reg(withKey(ctx, keyA), "bot-c"); return err }, codes.PermissionDenied},
		{"register with a wrong key", func() error { _, err := reg(withKey(ctx, "nope"), "bot-c"); return err }, codes.Unauthenticated},
		{"register a taken name", func() error { _, err := reg(adminCtx, "bot-a"); return err }, codes.AlreadyExists},
		{"register a bad name", func() error { _, err := reg(adminCtx, "Bad Name!"); return err }, codes.InvalidArgument},
		{"register a house name", func() error { _, err := reg(adminCtx, "house-me"); return err }, codes.InvalidArgument},
		{"revoke another bot", func() error {
			_, err := e.ladder.RevokeBot(withKey(ctx, keyA), &orreryv1.RevokeBotRequest{Name: "bot-b"})
			return err
		}, codes.PermissionDenied},
		{"revoke with no key", func() error {
			_, err := e.ladder.RevokeBot(ctx, &orreryv1.RevokeBotRequest{Name: "bot-b"})
			return err
		}, codes.Unauthenticated},
		{"revoke a house bot", func() error {
			_, err := e.ladder.RevokeBot(adminCtx, &orreryv1.RevokeBotRequest{Name: "house-random"})
			return err
		}, codes.FailedPrecondition},
		{"resume an unknown bot", func() error {
			_, err := e.ladder.ResumeBot(adminCtx, &orreryv1.ResumeBotRequest{Name: "nobody"})
			return err
		}, codes.NotFound},
		{"the leaderboard is public", func() error {
			_, err := e.ladder.GetLeaderboard(ctx, &orreryv1.GetLeaderboardRequest{})
			return err
		}, codes.OK},
		{"an unknown game's leaderboard", func() error {
			_, err := e.ladder.GetLeaderboard(ctx, &orreryv1.GetLeaderboardRequest{Game: "chess"})
			return err
		}, codes.NotFound},
		{"CreateMatch still needs the admin key", func() error {
			_, err := e.client.CreateMatch(withKey(ctx, keyA), &orreryv1.CreateMatchRequest{Game: testGame, Seats: 2})
			return err
		}, codes.Unauthenticated},
		{"CreateMatch with the admin key", func() error {
			_, err := e.client.CreateMatch(adminCtx, &orreryv1.CreateMatchRequest{Game: testGame, Seats: 2})
			return err
		}, codes.OK},
		{"ladder join without a key", func() error { return firstErr(e.join(ctx, "", &orreryv1.LadderJoin{})) }, codes.Unauthenticated},
		{"ladder join with a wrong key", func() error { return firstErr(e.join(ctx, "ork_wrong", &orreryv1.LadderJoin{})) }, codes.Unauthenticated},
		{"ladder join for an unknown game", func() error {
			return firstErr(e.join(ctx, keyB, &orreryv1.LadderJoin{Games: []string{"chess"}}))
		}, codes.InvalidArgument},
		{"ladder join for too many matches", func() error {
			return firstErr(e.join(ctx, keyB, &orreryv1.LadderJoin{MaxMatches: 1000}))
		}, codes.InvalidArgument},
		{"a seat-token join is not a ladder join", func() error {
			stream, err := e.client.Play(ctx)
			if err != nil {
				return err
			}
			stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: "x"}}})
			return firstErr(stream)
		}, codes.Unauthenticated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := status.Code(tt.call()); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// firstErr reads a stream until it fails.
func firstErr(s playStream) error {
	for {
		if _, err := s.Recv(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// TestRevoke_ClosesLiveStreamAndRefusesTheKey: a revoked key ends the bot's open stream with
// Unauthenticated and is refused on every later call.
func TestRevoke_ClosesLiveStreamAndRefusesTheKey(t *testing.T) {
	e := newEnv(t, nil, quick(Config{FillAfter: time.Hour}), "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	key := e.register("doomed")
	stream := e.join(ctx, key, &orreryv1.LadderJoin{})
	eventually(t, "queued", func() bool { return len(e.bot("doomed").GetBot().GetQueuedGames()) > 0 }) // every game registered in this test binary
	if _, err := e.ladder.RevokeBot(withKey(ctx, key), &orreryv1.RevokeBotRequest{}); err != nil {
		t.Fatal(err)
	}
	if err := firstErr(stream); status.Code(err) != codes.Unauthenticated {
		t.Errorf("live stream ended with %v, want Unauthenticated", err)
	}
	if err := firstErr(e.join(ctx, key, &orreryv1.LadderJoin{})); status.Code(err) != codes.Unauthenticated {
		t.Errorf("rejoin with a revoked key: %v, want Unauthenticated", err)
	}
	if _, err := e.ladder.GetBot(withKey(ctx, key), &orreryv1.GetBotRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Errorf("GetBot with a revoked key: %v, want Unauthenticated", err)
	}
	b := e.bot("doomed").GetBot()
	if !b.GetRevoked() || b.GetConnected() || len(b.GetQueuedGames()) != 0 {
		t.Errorf("revoked bot: %v", b)
	}
}

// silent plays a ladder stream without ever answering, counting matches, until it ends.
func silent(s playStream) (joined int, err error) {
	for {
		resp, err := s.Recv()
		if err != nil {
			return joined, err
		}
		if resp.GetJoined() != nil {
			joined++
		}
	}
}

// TestTimeouts_PauseABotWithAReason: a connected bot that lets its clock run out in
// PauseAfter matches in a row is paused, reads why when its stream ends and when it rejoins,
// and plays again once resumed.
func TestTimeouts_PauseABotWithAReason(t *testing.T) {
	e := newEnv(t, nil, quick(Config{
		PauseAfter: 2,
		Clock:      &orreryv1.Clock{PerMove: durationpb.New(time.Millisecond), TimeBank: durationpb.New(0)},
	}), "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	key := e.register("sleepy")
	joined, err := silent(e.join(ctx, key, &orreryv1.LadderJoin{}))
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "clock ran out in 2 consecutive matches") {
		t.Fatalf("stream ended with %v, want FailedPrecondition naming the timeouts", err)
	}
	if joined != 2 {
		t.Errorf("played %d matches before the pause, want 2", joined)
	}
	b := e.bot("sleepy").GetBot()
	if !b.GetPaused() || !strings.Contains(b.GetPauseReason(), "clock ran out") || b.GetTimeoutStreak() != 2 {
		t.Errorf("GetBot: %v, want paused with a reason", b)
	}
	if _, err := silent(e.join(ctx, key, &orreryv1.LadderJoin{})); status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "clock ran out") {
		t.Errorf("rejoin while paused: %v, want FailedPrecondition with the reason", err)
	}
	if _, err := e.ladder.ResumeBot(withKey(ctx, key), &orreryv1.ResumeBotRequest{}); err != nil {
		t.Fatal(err)
	}
	b = e.bot("sleepy").GetBot()
	if b.GetPaused() || b.GetTimeoutStreak() != 0 {
		t.Errorf("after ResumeBot: %v", b)
	}
	stream := e.join(ctx, key, &orreryv1.LadderJoin{})
	if resp, err := stream.Recv(); err != nil || resp.GetJoined() == nil {
		t.Errorf("after ResumeBot: %v %v, want a match", resp, err)
	}
}

// TestSeveralMatchesOnOneStream: with max_matches 3 the bot holds three matches at once and
// the stream routes each answer to its match by match_id.
func TestSeveralMatchesOnOneStream(t *testing.T) {
	e := newEnv(t, nil, quick(Config{}), "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	key := e.register("juggler")
	stream := e.join(ctx, key, &orreryv1.LadderJoin{MaxMatches: 3})
	// Hold every decision until three matches are open: they must run at once.
	var held []*orreryv1.Decision
	live := map[string]bool{}
	for len(live) < 3 {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		switch m := resp.GetMsg().(type) {
		case *orreryv1.PlayResponse_Joined:
			live[m.Joined.GetMatchId()] = true
		case *orreryv1.PlayResponse_Decision:
			held = append(held, m.Decision)
		}
	}
	if got := e.bot("juggler").GetBot().GetLiveMatchIds(); len(got) != 3 {
		t.Errorf("live matches %v, want 3", got)
	}
	answer := func(d *orreryv1.Decision) {
		if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{
			DecisionId: d.GetDecisionId(), MatchId: d.GetMatchId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range held {
		answer(d)
	}
	ended := map[string]bool{}
	for len(ended) < 3 {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		switch m := resp.GetMsg().(type) {
		case *orreryv1.PlayResponse_Decision:
			if !live[m.Decision.GetMatchId()] && !ended[m.Decision.GetMatchId()] {
				continue // a fourth match, started once room came free
			}
			answer(m.Decision)
		case *orreryv1.PlayResponse_Accepted:
			if m.Accepted.GetMatchId() == "" {
				t.Error("an acknowledgement names no match")
			}
		case *orreryv1.PlayResponse_Rejected:
			if m.Rejected.GetCode() != orreryv1.RejectCode_REJECT_CODE_STALE_DECISION {
				t.Errorf("rejected: %v", m.Rejected)
			}
		case *orreryv1.PlayResponse_Ended:
			if live[m.Ended.GetMatchId()] {
				ended[m.Ended.GetMatchId()] = true
			}
		}
	}
	// An answer that names no match, or a match not on this stream, is rejected; the
	// stream goes on.
	stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "d1"}}})
	stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "d1", MatchId: "mNope"}}})
	codes := []orreryv1.RejectCode{}
	for len(codes) < 2 {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if rej := resp.GetRejected(); rej != nil && rej.GetDecisionId() == "d1" {
			codes = append(codes, rej.GetCode())
		}
	}
	if codes[0] != orreryv1.RejectCode_REJECT_CODE_MALFORMED || codes[1] != orreryv1.RejectCode_REJECT_CODE_STALE_DECISION {
		t.Errorf("rejections %v, want malformed then stale", codes)
	}
}

// TestDisconnect_NotRequeuedUntilBackThenResumes: a bot that drops mid-match leaves the queue;
// its match waits under the clock; when it rejoins it resumes that match on the new stream.
func TestDisconnect_NotRequeuedUntilBackThenResumes(t *testing.T) {
	e := newEnv(t, nil, quick(Config{}), "")
	key := e.register("flaky")
	ctx1, drop := context.WithCancel(context.Background())
	stream := e.join(ctx1, key, &orreryv1.LadderJoin{})
	resp, err := stream.Recv()
	if err != nil || resp.GetJoined() == nil {
		t.Fatalf("%v %v", resp, err)
	}
	match := resp.GetJoined().GetMatchId()
	drop()
	eventually(t, "disconnected", func() bool { return !e.bot("flaky").GetBot().GetConnected() })
	b := e.bot("flaky").GetBot()
	if len(b.GetQueuedGames()) != 0 || !slices.Contains(b.GetLiveMatchIds(), match) {
		t.Errorf("after dropping: %v, want no queue and the match still live", b)
	}
	ctx2, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream = e.join(ctx2, key, &orreryv1.LadderJoin{})
	resp, err = stream.Recv()
	if err != nil || resp.GetJoined().GetMatchId() != match {
		t.Errorf("rejoined: %v %v, want match %s resumed", resp, err, match)
	}
}

// TestHouseBotsPlayContinuously: with HouseMatches set, house bots play each other without
// anyone joining, and their standings move.
func TestHouseBotsPlayContinuously(t *testing.T) {
	e := newEnv(t, nil, quick(Config{HouseMatches: 1, House: randomHouse(4)}), "")
	ctx := context.Background()
	eventually(t, "three house matches rated", func() bool {
		board, err := e.ladder.GetLeaderboard(ctx, &orreryv1.GetLeaderboardRequest{Game: testGame})
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, en := range board.GetEntries() {
			total += int(en.GetGames())
		}
		return total >= 3*4
	})
	list, err := e.ladder.ListBots(ctx, &orreryv1.ListBotsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.GetBots()) != 4 || !list.GetBots()[0].GetHouse() {
		t.Errorf("bots %v: want the 4 house bots", list.GetBots())
	}
	if got, _ := e.ladder.ListBots(ctx, &orreryv1.ListBotsRequest{ExcludeHouse: true}); len(got.GetBots()) != 0 {
		t.Errorf("exclude_house lists %v", got.GetBots())
	}
}

// TestReplacedStream: a second stream of the same bot replaces the first (Aborted).
func TestReplacedStream(t *testing.T) {
	e := newEnv(t, nil, quick(Config{FillAfter: time.Hour}), "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	key := e.register("twin")
	first := e.join(ctx, key, &orreryv1.LadderJoin{})
	eventually(t, "queued", func() bool { return e.bot("twin").GetBot().GetConnected() })
	e.join(ctx, key, &orreryv1.LadderJoin{})
	if err := firstErr(first); status.Code(err) != codes.Aborted {
		t.Errorf("first stream ended with %v, want Aborted", err)
	}
	if !e.bot("twin").GetBot().GetConnected() {
		t.Error("the newer stream is not connected")
	}
}
