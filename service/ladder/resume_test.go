package ladder

import (
	"context"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/orrery/orrery/bots"
	botladder "github.com/orrery/orrery/bots/ladder"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/store"
)

// positionBot picks a legal action by a hash of its seat and the legal actions, after pace:
// the same position always gets the same answer, however often it is asked and on whichever
// server, so that a match resumed after a restart plays on as it would have without one.
type positionBot struct{ pace time.Duration }

func (b positionBot) Act(d *orreryv1.Decision) *orreryv1.Answer {
	time.Sleep(b.pace)
	n := bots.Count(d)
	if n == 0 {
		return bots.Index(d, 0)
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d", d.GetSeat(), n)
	for _, notation := range d.GetLegalNotation() {
		h.Write([]byte(notation))
		h.Write([]byte{0})
	}
	return bots.Index(d, int(h.Sum64()%uint64(n)))
}

// resumeConfig is a ladder of three registered bots and no house bot to fill in.
func resumeConfig() Config {
	return quick(Config{FillAfter: time.Hour, House: []House{}, Seats: map[string]int{testGame: 3}})
}

// playLadder plays the bots names (keys[name]) on e's ladder with positionBot until each has
// finished one match, and returns the matches each joined.
func playLadder(ctx context.Context, t *testing.T, e *env, keys map[string]string, names []string, pace time.Duration) map[string][]string {
	t.Helper()
	var mu sync.Mutex
	joined := map[string][]string{}
	var wg sync.WaitGroup
	for _, name := range names {
		wg.Go(func() {
			err := botladder.Run(ctx, e.conn, botladder.Options{APIKey: keys[name], Games: []string{testGame}, Matches: 1,
				MaxBackoff: 50 * time.Millisecond, NewBot: func(j *orreryv1.Joined) (bots.Bot, error) {
					mu.Lock()
					joined[name] = append(joined[name], j.GetMatchId())
					mu.Unlock()
					return positionBot{pace: pace}, nil
				}})
			if err != nil && ctx.Err() == nil {
				t.Errorf("%s: %v", name, err)
			}
		})
	}
	wg.Wait()
	return joined
}

// TestRestart_LadderMatchResumesOnTheBotsStreamsAndIsRatedOnce restarts a ladder server (the
// same database) while its match is mid-game. The bots reconnect to the new server and are
// offered the same match on their new ladder streams; it finishes by the rules, with the
// ranks an uninterrupted run of the same match (its seed, its seating) gives, and is rated
// once, exactly as that run would be.
func TestRestart_LadderMatchResumesOnTheBotsStreamsAndIsRatedOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	names := []string{"ann", "bob", "cid"}
	first := newEnv(t, db, resumeConfig(), "")
	keys := map[string]string{}
	for _, n := range names {
		keys[n] = first.register(n)
	}
	botCtx, stopBots := context.WithCancel(ctx)
	played := make(chan map[string][]string, 1)
	go func() { played <- playLadder(botCtx, t, first, keys, names, 10*time.Millisecond) }()
	var id string
	eventually(t, "a ladder match a few moves in", func() bool {
		// Steps read through the store: a running match's are in more than one table.
		if err := db.SQL().QueryRow(`SELECT match_id FROM ladder_matches`).Scan(&id); err != nil {
			return false
		}
		steps, err := db.Steps(ctx, id)
		return err == nil && len(steps) >= 5
	})
	first.lad.Close() // the bots' streams end with the server
	first.arena.Close()
	stopBots()
	<-played
	var running bool
	if err := db.SQL().QueryRow(`SELECT EXISTS (SELECT 1 FROM matches m WHERE m.id = ? AND `+store.IsRunning+`)`, id).Scan(&running); err != nil || !running {
		t.Fatalf("match %s ended before the restart (%v): nothing to resume", id, err)
	}

	second := newEnv(t, db, resumeConfig(), "")
	joined := playLadder(ctx, t, second, keys, names, 0)
	for _, n := range names {
		if !slices.Equal(joined[n], []string{id}) {
			t.Errorf("%s joined %v after the restart, want the resumed match %s alone", n, joined[n], id)
		}
	}
	eventually(t, "the match rated", func() bool { return count(t, second.lad.db, "rated_matches") == 1 })
	rep, err := second.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	m := rep.GetMatch()
	if m.GetResult().GetReason() != orreryv1.EndReason_END_REASON_NORMAL {
		t.Errorf("resumed match ended %v, want by the rules", m.GetResult().GetReason())
	}
	for _, s := range m.GetSeatInfo() {
		if s.GetTimeouts() != 0 {
			t.Errorf("seat %d timed out %d times", s.GetSeat(), s.GetTimeouts())
		}
	}

	// The same match uninterrupted: its seed and seating, the same bots.
	clean := newEnv(t, nil, resumeConfig(), "")
	seating := make([]string, len(m.GetSeatInfo()))
	for i, s := range m.GetSeatInfo() {
		seating[i] = s.GetName()
	}
	seed := rep.GetSeed()
	cleanID, tokens, _, err := clean.arena.Create(ctx, service.MatchSpec{Game: testGame, Seats: len(seating), Seed: &seed, Clock: resumeConfig().Clock})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, tok := range tokens {
		wg.Go(func() {
			if _, err := sdk.Play(ctx, clean.conn, tok, positionBot{}, sdk.Options{}); err != nil {
				t.Errorf("uninterrupted run: %v", err)
			}
		})
	}
	wg.Wait()
	want, err := clean.arena.AwaitEnd(ctx, cleanID)
	if err != nil {
		t.Fatal(err)
	}
	ranks := m.GetResult().GetRanks()
	if !slices.Equal(ranks, want.GetResult().GetRanks()) {
		t.Fatalf("ranks %v after the restart, %v uninterrupted", ranks, want.GetResult().GetRanks())
	}
	model := second.lad.model
	prior := make([]Rating, len(ranks))
	intRanks := make([]int, len(ranks))
	for i := range prior {
		prior[i], intRanks[i] = model.New(), int(ranks[i])
	}
	after := model.Rate(prior, intRanks)
	stored, err := second.lad.db.ratings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for seat, name := range seating {
		b := second.lad.botByName(name)
		got := stored[b.id][testGame]
		wins := 0
		if ranks[seat] == 1 {
			wins = 1
		}
		if got.Rating != after[seat] || got.games != 1 || got.wins != wins || got.lastMatch != id {
			t.Errorf("%s (seat %d): rated %+v, want %+v after 1 game, %d wins, match %s", name, seat, got, after[seat], wins, id)
		}
	}
	if n := count(t, second.lad.db, "ladder_rating_changes"); n != len(seating) {
		t.Errorf("%d rating changes, want one per seat: %d", n, len(seating))
	}
}
