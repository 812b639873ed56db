package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service"
	"github.com/orrery/orrery/service/store"
)

// A ladder's ratings are a function of its schedule alone: matches are rated in creation
// order within each game, so that with bots that answer by the position alone and no clock
// running out, a clean run of the same schedule (each match's game, seating and seed, in
// creation order) on a fresh server rates every bot exactly as the ladder did, however the
// ladder's run was interrupted. The cluster test and the chaos soak check this.

// scheduled is a ladder match as it was played: its game, its bots seat by seat, its seed
// and its ranks.
type scheduled struct {
	id    string
	game  string
	bots  []string
	seed  uint64
	ranks []int32
}

// ladderSchedule is a ladder's matches in creation order, as db records them, with each
// match's seed and ranks from played (by match id).
func ladderSchedule(t *testing.T, db *sql.DB, played map[string]scheduled) []scheduled {
	t.Helper()
	names := map[int64]string{}
	nrows, err := db.Query(`SELECT id, name FROM ladder_bots`)
	if err != nil {
		t.Fatal(err)
	}
	for nrows.Next() {
		var id int64
		var name string
		if err := nrows.Scan(&id, &name); err != nil {
			t.Fatal(err)
		}
		names[id] = name
	}
	nrows.Close()
	rows, err := db.Query(`SELECT lm.match_id, lm.game, lm.bot_ids FROM ladder_matches lm JOIN matches m ON m.id = lm.match_id ORDER BY m.rowid_`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []scheduled
	for rows.Next() {
		var s scheduled
		var ids string
		if err := rows.Scan(&s.id, &s.game, &ids); err != nil {
			t.Fatal(err)
		}
		var botIDs []int64
		if err := json.Unmarshal([]byte(ids), &botIDs); err != nil {
			t.Fatal(err)
		}
		for _, id := range botIDs {
			s.bots = append(s.bots, names[id])
		}
		s.seed = played[s.id].seed
		s.ranks = played[s.id].ranks
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// ratingKey is a bot's rating in one game.
type ratingKey struct{ game, bot string }

// rated is a stored rating.
type rated struct {
	Mu, Sigma   float64
	Games, Wins int
}

// storedRatings reads every bot's stored rating in every game.
func storedRatings(t *testing.T, db *sql.DB) map[ratingKey]rated {
	t.Helper()
	rows, err := db.Query(`SELECT r.game, b.name, r.mu, r.sigma, r.games, r.wins FROM ladder_ratings r JOIN ladder_bots b ON b.id = r.bot_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[ratingKey]rated{}
	for rows.Next() {
		var k ratingKey
		var r rated
		if err := rows.Scan(&k.game, &k.bot, &r.Mu, &r.Sigma, &r.Games, &r.Wins); err != nil {
			t.Fatal(err)
		}
		out[k] = r
	}
	return out
}

// positionHash is a hash of a decision's seat and legal actions: the same position gives the
// same hash whenever, wherever and however often it is asked (not the decision's id: a
// decision pending when a match stopped is issued again under the ply it resumed at).
func positionHash(d *orreryv1.Decision) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d", d.GetSeat(), bots.Count(d))
	for _, notation := range d.GetLegalNotation() {
		h.Write([]byte(notation))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// scheduleBot plays one seat of a clean run of a schedule.
type scheduleBot func(game, name string) bots.Bot

// playSchedule plays schedule on a, a fresh server with a ladder on which names are
// registered: each match on its game and seed, seat by seat, recorded as a ladder match in
// the same order, its seats played by botFor. Each match's ranks must equal the schedule's;
// where they differ, the first different step is logged beside replay's (the original's
// replay by id, or nil). The ladder rates the matches when a restarts.
func playSchedule(t *testing.T, ctx context.Context, a *arena, schedule []scheduled, botFor scheduleBot,
	replay func(id string) *orreryv1.GetReplayResponse) {
	t.Helper()
	conn, err := a.dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ids := map[string]int64{}
	rows, err := a.db.SQL().Query(`SELECT id, name FROM ladder_bots`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			t.Fatal(err)
		}
		ids[name] = id
	}
	rows.Close()
	// Created one after another, so that the ladder rates them in the schedule's order, and
	// played up to parallel at once.
	const parallel = 16
	slots := make(chan struct{}, parallel)
	var matches sync.WaitGroup
	for _, s := range schedule {
		slots <- struct{}{}
		seed := s.seed
		id, tokens, _, err := a.srv.Create(ctx, service.MatchSpec{Game: s.game, Seats: len(s.bots), Seed: &seed,
			Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute)}, Names: s.bots})
		if err != nil {
			t.Fatal(err)
		}
		botIDs := make([]int64, len(s.bots))
		for i, name := range s.bots {
			botIDs[i] = ids[name]
		}
		if _, err := a.db.SQL().Exec(`INSERT INTO ladder_matches (match_id, game, bot_ids, created_ns) VALUES (?,?,?,?)`,
			id, s.game, store.JSON(botIDs), time.Now().UnixNano()); err != nil {
			t.Fatal(err)
		}
		matches.Go(func() {
			defer func() { <-slots }()
			var seats sync.WaitGroup
			ends := make([]*orreryv1.MatchEnded, len(tokens))
			for i, tok := range tokens {
				seats.Go(func() {
					end, err := sdk.Play(ctx, conn, tok, botFor(s.game, s.bots[i]), sdk.Options{})
					if err != nil {
						t.Errorf("clean run of %s: %v", s.id, err)
					}
					ends[i] = end
				})
			}
			seats.Wait()
			if ranks := ends[0].GetResult().GetRanks(); !slices.Equal(ranks, s.ranks) {
				t.Errorf("ladder match %s (%s, seed %d, %v): ranks %v as played, %v in the clean run", s.id, s.game, s.seed, s.bots, s.ranks, ranks)
				if mine, err := service.LoadReplay(ctx, a.db, id); err == nil && replay != nil {
					if theirs := replay(s.id); theirs != nil {
						for i := range min(len(mine.GetSteps()), len(theirs.GetSteps())) {
							if !proto.Equal(mine.GetSteps()[i], theirs.GetSteps()[i]) {
								t.Logf("first different step %d: as played %v, clean %v", i, theirs.GetSteps()[i], mine.GetSteps()[i])
								break
							}
						}
					}
				}
			}
		})
	}
	matches.Wait()
}

// cleanRatings plays schedule cleanly (playSchedule) on a fresh single SQLite server with a
// ladder (cfg, its dbPath set here) on which names are registered, and returns the ratings
// its ladder gives them.
func cleanRatings(t *testing.T, ctx context.Context, cfg arenaConfig, names []string, schedule []scheduled, botFor scheduleBot,
	replay func(id string) *orreryv1.GetReplayResponse) map[ratingKey]rated {
	t.Helper()
	cfg.dbPath = filepath.Join(t.TempDir(), "clean.db")
	a, err := startArena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	registerBots(t, ctx, a, cfg.adminKey, names)
	playSchedule(t, ctx, a, schedule, botFor, replay)
	a.stop()
	return restartedRatings(t, cfg)
}

// registerBots registers names on a's ladder and returns their keys.
func registerBots(t *testing.T, ctx context.Context, a *arena, adminKey string, names []string) map[string]string {
	t.Helper()
	conn, err := a.dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if adminKey != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "bearer "+adminKey)
	}
	lad := orreryv1.NewLadderServiceClient(conn)
	keys := map[string]string{}
	for _, name := range names {
		r, err := lad.RegisterBot(ctx, &orreryv1.RegisterBotRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		keys[name] = r.GetApiKey()
	}
	return keys
}

// restartedRatings starts the server of cfg again, so that its ladder rates every finished
// ladder match not yet rated, in creation order, and returns the ratings.
func restartedRatings(t *testing.T, cfg arenaConfig) map[ratingKey]rated {
	t.Helper()
	a, err := startArena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.stop()
	return storedRatings(t, a.db.SQL())
}

// texts runs q on db and returns its one text column, row by row.
func texts(t *testing.T, ctx context.Context, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
