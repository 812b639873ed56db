package main

import (
	"context"
	"database/sql"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	botladder "github.com/orrery/orrery/bots/ladder"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// soakLadderBots are the registered bots the chaos soak plays on its server's ladder, every
// game, each on one ladder stream. They are well-behaved (the faults are the other clients'
// and the kills); what they show is that the ladder rates through three kill -9s exactly as
// a clean run of the same schedule does.
var soakLadderBots = []string{"soak-greedy-1", "soak-greedy-2", "soak-greedy-3", "soak-random-1", "soak-random-2", "soak-random-3"}

// soakLadderBot is the built-in bot a soak ladder bot plays game with: greedy or random by
// its name, made afresh for each decision with the position's hash (positionHash) as its seed,
// so that its answer is a function of the position alone. A bot seeded once per match would
// not do: a match cut by kill -9 resumes at its last stored step and asks again decisions the
// bot had answered, and a ladder stream that reconnects starts a fresh bot mid-match.
// PanTropia's greedy keeps the offers it made this turn, which a fresh bot would forget, so
// in PanTropia the greedy bots play random too.
func soakLadderBot(game, name string) bots.Bot {
	kind := "random"
	if strings.Contains(name, "greedy") && game != "pantropia" {
		kind = "greedy"
	}
	return bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer {
		b, err := builtin.New(game, kind, positionHash(d))
		if err != nil {
			panic(err) // every game has random, and greedy but for the one excluded
		}
		return b.Act(d)
	})
}

// soakLadder is the soak's ladder: its bots' streams, and a read-only view of the server's
// database (the seats of running ladder matches, their schedule and the ratings).
type soakLadder struct {
	t    *testing.T
	db   *sql.DB
	conn *grpc.ClientConn
	stop context.CancelFunc
	wg   sync.WaitGroup
	// cut counts the ladder matches running at each kill.
	cut []int
}

// startSoakLadder registers the soak's ladder bots on the server at conn and plays them in
// games (nil: every game), up to maxMatches matches at once each, reconnecting at most 200 ms
// after the server is back.
func startSoakLadder(ctx context.Context, t *testing.T, dbPath string, conn *grpc.ClientConn, games []string, maxMatches int) *soakLadder {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+dbPath+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	lad := orreryv1.NewLadderServiceClient(conn)
	l := &soakLadder{t: t, db: db, conn: conn}
	var botCtx context.Context
	botCtx, l.stop = context.WithCancel(ctx)
	for _, name := range soakLadderBots {
		r, err := lad.RegisterBot(ctx, &orreryv1.RegisterBotRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		l.wg.Go(func() {
			botladder.Run(botCtx, conn, botladder.Options{APIKey: r.GetApiKey(), Games: games, MaxMatches: maxMatches, MaxBackoff: 200 * time.Millisecond,
				NewBot: func(j *orreryv1.Joined) (bots.Bot, error) { return soakLadderBot(j.GetGame(), name), nil }})
		})
	}
	return l
}

// count runs a COUNT query on the server's database.
func (l *soakLadder) count(ctx context.Context, q string) int {
	l.t.Helper()
	var n int
	if err := l.db.QueryRowContext(ctx, q).Scan(&n); err != nil {
		l.t.Fatal(err)
	}
	return n
}

// awaitMidGame waits until a ladder match is a few steps into its game, so that the kill
// about to come cuts it, and records how many are running. Steps are counted by the
// server (GetMatch): the store keeps a running match's steps in more than one table.
func (l *soakLadder) awaitMidGame(ctx context.Context) {
	arena := orreryv1.NewArenaServiceClient(l.conn)
	for ctx.Err() == nil {
		running := texts(l.t, ctx, l.db, `SELECT lm.match_id FROM ladder_matches lm JOIN matches m ON m.id = lm.match_id WHERE `+store.IsRunning)
		for _, id := range running {
			if got, err := arena.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id}); err == nil && got.GetMatch().GetPly() >= 3 {
				l.cut = append(l.cut, len(running))
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// finish stops the ladder's bots and plays the seats of the matches they leave running, as
// the bots would have, with their own bots; then waits until every ladder match is rated.
func (l *soakLadder) finish(ctx context.Context) {
	l.t.Helper()
	l.stop()
	l.wg.Wait()
	lad := orreryv1.NewLadderServiceClient(l.conn)
	for _, name := range soakLadderBots {
		for ctx.Err() == nil {
			got, err := lad.GetBot(ctx, &orreryv1.GetBotRequest{Name: name})
			if err == nil && !got.GetBot().GetConnected() {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	time.Sleep(time.Second) // a matchmaking pass that read the queue just before the bots left has created its match
	rows, err := l.db.QueryContext(ctx, `SELECT ls.token, lm.game, b.name FROM ladder_seats ls JOIN ladder_matches lm ON lm.match_id = ls.match_id
		JOIN ladder_bots b ON b.id = ls.bot_id JOIN matches m ON m.id = ls.match_id WHERE `+store.IsRunning)
	if err != nil {
		l.t.Fatal(err)
	}
	type seat struct{ token, game, bot string }
	var seats []seat
	for rows.Next() {
		var s seat
		if err := rows.Scan(&s.token, &s.game, &s.bot); err != nil {
			l.t.Fatal(err)
		}
		seats = append(seats, s)
	}
	rows.Close()
	var wg sync.WaitGroup
	for _, s := range seats {
		wg.Go(func() {
			if _, err := sdk.Play(ctx, l.conn, s.token, soakLadderBot(s.game, s.bot), sdk.Options{}); err != nil {
				l.t.Errorf("finish a ladder seat of %s: %v", s.bot, err)
			}
		})
	}
	wg.Wait()
	// A running match with no seats recorded nobody can play: only its clock would end it.
	if n := l.count(ctx, `SELECT COUNT(*) FROM ladder_matches lm JOIN matches m ON m.id = lm.match_id
		WHERE `+store.IsRunning+` AND lm.match_id NOT IN (SELECT match_id FROM ladder_seats)`); n > 0 {
		l.t.Errorf("%d ladder matches running with no seats recorded", n)
	}
	for ctx.Err() == nil && l.count(ctx, `SELECT COUNT(*) FROM ladder_matches lm JOIN matches m ON m.id = lm.match_id
		WHERE lm.rated = 0 AND (m.rowid_ IN (SELECT match_rowid FROM results) OR lm.match_id IN (SELECT match_id FROM ladder_seats))`) > 0 {
		time.Sleep(50 * time.Millisecond)
	}
}

// check verifies every ladder match (finished by the rules, its replay verifying, no seat
// timed out), then plays the same schedule cleanly on a fresh server and requires every
// bot's rating in every game to equal the soak's. It returns how many ladder matches were rated.
func (l *soakLadder) check(ctx context.Context, addr string) int {
	l.t.Helper()
	t := l.t
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := orreryv1.NewArenaServiceClient(conn)
	played := map[string]scheduled{}
	replays := map[string]*orreryv1.GetReplayResponse{}
	rows, err := l.db.QueryContext(ctx, `SELECT match_id FROM ladder_matches`)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	for _, id := range ids {
		r, err := client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
		if err != nil {
			t.Errorf("ladder match %s: %v", id, err)
			continue
		}
		if err := verify(io.Discard, r); err != nil {
			t.Errorf("ladder match %s does not verify: %v", id, err)
		}
		m := r.GetMatch()
		if reason := m.GetResult().GetReason(); reason != orreryv1.EndReason_END_REASON_NORMAL && reason != orreryv1.EndReason_END_REASON_CAP {
			t.Errorf("ladder match %s ended %v, want by the rules", id, reason)
		}
		for _, s := range m.GetSeatInfo() {
			if s.GetTimeouts() > 0 {
				t.Errorf("ladder match %s: seat %d (%s) timed out %d times", id, s.GetSeat(), s.GetName(), s.GetTimeouts())
			}
		}
		replays[id] = r
		played[id] = scheduled{seed: r.GetSeed(), ranks: m.GetResult().GetRanks()}
	}
	schedule := ladderSchedule(t, l.db, played)
	got := storedRatings(t, l.db)
	rated := l.count(ctx, `SELECT COUNT(*) FROM ladder_rating_changes`) // a row per seat of each rated match
	matches := l.count(ctx, `SELECT COUNT(DISTINCT match_id) FROM ladder_rating_changes`)
	if matches != len(schedule) || rated == 0 {
		t.Errorf("%d of %d ladder matches rated (%d seats)", matches, len(schedule), rated)
	}
	clean := arenaConfig{addr: "127.0.0.1:0", logger: slog.New(slog.DiscardHandler),
		ladder: &ladderOptions{fillAfter: time.Hour, clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute)}}}
	want := cleanRatings(t, ctx, clean, soakLadderBots, schedule, soakLadderBot, func(id string) *orreryv1.GetReplayResponse { return replays[id] })
	for _, k := range slices.SortedFunc(maps.Keys(want), func(a, b ratingKey) int { return strings.Compare(a.game+a.bot, b.game+b.bot) }) {
		if got[k] != want[k] {
			t.Errorf("%s in %s: rated %+v by the soak, %+v by a clean run of the same schedule", k.bot, k.game, got[k], want[k])
		}
	}
	if len(got) != len(want) {
		t.Errorf("the soak rated %d bot-games, the clean run %d", len(got), len(want))
	}
	t.Logf("ladder: %d matches rated through the kills (running at each kill: %v); %d bot-games' ratings compared with a clean run's",
		matches, l.cut, len(want))
	return matches
}
