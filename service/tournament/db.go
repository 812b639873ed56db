package tournament

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"google.golang.org/protobuf/proto"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// The tournaments' tables live beside the arena's matches in the same database. Recorded
// tournaments (played elsewhere) keep the tables they had under the ladder.
const schema = `
CREATE TABLE IF NOT EXISTS tournaments (
	id TEXT PRIMARY KEY,
	game TEXT NOT NULL,
	format INTEGER NOT NULL,
	seats INTEGER NOT NULL,
	entrants TEXT NOT NULL, -- JSON array
	duplicate INTEGER NOT NULL,
	started_ns INTEGER NOT NULL,
	finished_ns INTEGER NOT NULL,
	standings TEXT NOT NULL -- JSON, as computed when recorded
);
CREATE TABLE IF NOT EXISTS tournament_matches (
	tournament_id TEXT NOT NULL REFERENCES tournaments(id),
	seq INTEGER NOT NULL,
	match_id TEXT NOT NULL,
	PRIMARY KEY (tournament_id, seq)
);
-- Server-run tournaments: the request as normalised, and the schedule with its progress.
CREATE TABLE IF NOT EXISTS tournament_runs (
	id TEXT PRIMARY KEY,
	spec BLOB NOT NULL, -- CreateTournamentRequest, protobuf, seats, games, parallel and seed set
	entrants TEXT NOT NULL, -- JSON [{name, builtin}]
	created_ns INTEGER NOT NULL,
	finished_ns INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tournament_runs_unfinished ON tournament_runs(id) WHERE finished_ns = 0;
CREATE TABLE IF NOT EXISTS tournament_slots (
	tournament_id TEXT NOT NULL REFERENCES tournament_runs(id),
	seq INTEGER NOT NULL,
	round INTEGER NOT NULL,
	set_no INTEGER NOT NULL,
	entrants TEXT NOT NULL, -- JSON entrant indexes, seat by seat
	seed INTEGER NOT NULL, -- the uint64's bits
	match_id TEXT NOT NULL DEFAULT '',
	-- The match's seat tokens, so that a restarted server seats the entrants again. Secret
	-- like the rest of the database; gone once the match has ended.
	tokens TEXT NOT NULL DEFAULT '[]',
	ranks TEXT NOT NULL DEFAULT '[]',
	forfeited TEXT NOT NULL DEFAULT '[]',
	reason INTEGER NOT NULL DEFAULT 0, -- orrery.v1.EndReason
	ended INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (tournament_id, seq)
);
-- A duplicate set's seals (seals.go): a match of the set, written with its slot's match id,
-- before the match is created. Its seed stays withheld while any slot of its set has not ended.
CREATE TABLE IF NOT EXISTS tournament_seals (
	match_id TEXT PRIMARY KEY,
	tournament_id TEXT NOT NULL,
	round INTEGER NOT NULL,
	set_no INTEGER NOT NULL
);
`

type db struct{ *sql.DB }

func openDB(s *store.DB) (*db, error) {
	if s == nil {
		return nil, errors.New("tournament: needs the arena's store")
	}
	if err := s.CreateTables(schema); err != nil {
		return nil, fmt.Errorf("tournament: create tables: %w", err)
	}
	return &db{s.SQL()}, nil
}

// insertRun stores a new tournament and the schedule drawn so far, together.
func (d *db) insertRun(ctx context.Context, r *run) error {
	spec, err := proto.Marshal(r.spec)
	if err != nil {
		return err
	}
	tx, err := d.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO tournament_runs (id, spec, entrants, created_ns) VALUES (?,?,?,?)`,
		r.id, spec, store.JSON(r.entrants), store.UnixNano(r.created)); err != nil {
		return err
	}
	if err := insertSlots(ctx, tx, r.id, r.slots); err != nil {
		return err
	}
	return tx.Commit()
}

// insertSlots stores a Swiss round as it is drawn.
func (d *db) insertSlots(ctx context.Context, id string, slots []*slot) error {
	tx, err := d.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := insertSlots(ctx, tx, id, slots); err != nil {
		return err
	}
	return tx.Commit()
}

func insertSlots(ctx context.Context, tx *sql.Tx, id string, slots []*slot) error {
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO tournament_slots (tournament_id, seq, round, set_no, entrants, seed) VALUES (?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, sl := range slots {
		if _, err := stmt.ExecContext(ctx, id, sl.seq, sl.round, sl.set, store.JSON(sl.entrants), int64(sl.seed)); err != nil {
			return err
		}
	}
	return nil
}

// startSlot records the match that plays sl, and its seats' tokens. The match of a
// duplicate set is sealed in the same transaction: from the moment its id is known anywhere,
// every node withholds its seed (seals.go).
func (d *db) startSlot(ctx context.Context, r *run, sl *slot, matchID string, tokens []string) error {
	tx, err := d.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE tournament_slots SET match_id = ?, tokens = ? WHERE tournament_id = ? AND seq = ?`,
		matchID, store.JSON(tokens), r.id, sl.seq); err != nil {
		return err
	}
	if r.spec.GetDuplicate() {
		if _, err := tx.ExecContext(ctx, `INSERT INTO tournament_seals (match_id, tournament_id, round, set_no) VALUES (?,?,?,?)
			ON CONFLICT (match_id) DO NOTHING`, matchID, r.id, sl.round, sl.set); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func (d *db) endSlot(ctx context.Context, id string, seq int, ranks, forfeited []int, reason orreryv1.EndReason) error {
	if forfeited == nil {
		forfeited = []int{}
	}
	_, err := d.ExecContext(ctx, `UPDATE tournament_slots SET ranks = ?, forfeited = ?, reason = ?, ended = 1, tokens = '[]' WHERE tournament_id = ? AND seq = ?`,
		store.JSON(ranks), store.JSON(forfeited), int32(reason), id, seq)
	return err
}

func (d *db) finishRun(ctx context.Context, id string, at time.Time) error {
	_, err := d.ExecContext(ctx, `UPDATE tournament_runs SET finished_ns = ? WHERE id = ?`, store.UnixNano(at), id)
	return err
}

func (d *db) unfinishedRuns(ctx context.Context) ([]string, error) {
	rows, err := d.QueryContext(ctx, `SELECT id FROM tournament_runs WHERE finished_ns = 0 ORDER BY created_ns`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// loadRun reads a server-run tournament and its schedule; sql.ErrNoRows if there is none.
func (d *db) loadRun(ctx context.Context, id string) (*run, error) {
	var specBytes []byte
	var entrants string
	var created, finished int64
	if err := d.QueryRowContext(ctx, `SELECT spec, entrants, created_ns, finished_ns FROM tournament_runs WHERE id = ?`, id).
		Scan(&specBytes, &entrants, &created, &finished); err != nil {
		return nil, err
	}
	spec := &orreryv1.CreateTournamentRequest{}
	if err := proto.Unmarshal(specBytes, spec); err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	var es []entrant
	if err := json.Unmarshal([]byte(entrants), &es); err != nil {
		return nil, fmt.Errorf("entrants: %w", err)
	}
	r := newRun(id, spec, es, store.FromUnixNano(created))
	r.finished = store.FromUnixNano(finished)
	rows, err := d.QueryContext(ctx, `SELECT seq, round, set_no, entrants, seed, match_id, tokens, ranks, forfeited, reason, ended
		FROM tournament_slots WHERE tournament_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		sl := &slot{}
		var ents, tokens, ranks, forfeited string
		var seed int64
		var reason int32
		if err := rows.Scan(&sl.seq, &sl.round, &sl.set, &ents, &seed, &sl.matchID, &tokens, &ranks, &forfeited, &reason, &sl.ended); err != nil {
			return nil, err
		}
		sl.seed, sl.reason = uint64(seed), orreryv1.EndReason(reason)
		for _, f := range []struct {
			s string
			v any
		}{{ents, &sl.entrants}, {tokens, &sl.tokens}, {ranks, &sl.ranks}, {forfeited, &sl.forfeited}} {
			if err := json.Unmarshal([]byte(f.s), f.v); err != nil {
				return nil, fmt.Errorf("slot %d: %w", sl.seq, err)
			}
		}
		if len(sl.ranks) == 0 {
			sl.ranks = nil
		}
		if len(sl.forfeited) == 0 {
			sl.forfeited = nil
		}
		r.slots = append(r.slots, sl)
	}
	return r, rows.Err()
}

// matchIDs is every match a tournament has started.
func (d *db) matchIDs(ctx context.Context, id string) ([]string, error) {
	rows, err := d.QueryContext(ctx, `SELECT match_id FROM tournament_slots WHERE tournament_id = ? AND match_id != ''`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// listed is one row of ListTournaments: a server-run tournament or a recorded one.
type listed struct {
	id       string
	run      bool
	created  int64
	finished int64
}

// list pages every tournament, newest first, after the row offset.
func (d *db) list(ctx context.Context, offset, size int) ([]listed, error) {
	rows, err := d.QueryContext(ctx, `SELECT id, 1, created_ns, finished_ns FROM tournament_runs
		UNION ALL SELECT id, 0, started_ns, finished_ns FROM tournaments
		ORDER BY 3 DESC, 1 LIMIT ? OFFSET ?`, size, offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []listed
	for rows.Next() {
		var l listed
		if err := rows.Scan(&l.id, &l.run, &l.created, &l.finished); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}
