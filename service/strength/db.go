package strength

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// The tests' tables live beside the arena's matches in the same database. A test's state is
// its counted pairs: the status and the LLR history are recounted from them.
const schema = `
CREATE TABLE IF NOT EXISTS sprt_runs (
	id TEXT PRIMARY KEY,
	spec BLOB NOT NULL, -- StartSPRTRequest, protobuf, normalised
	created_ns INTEGER NOT NULL,
	finished_ns INTEGER NOT NULL DEFAULT 0,
	status INTEGER NOT NULL, -- orrery.v1.SPRTStatus
	failure TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS sprt_pairs (
	sprt_id TEXT NOT NULL REFERENCES sprt_runs(id),
	deal INTEGER NOT NULL,
	pair TEXT NOT NULL, -- SPRTPair, protobuf JSON
	PRIMARY KEY (sprt_id, deal)
);
-- Every match a test created, recorded before it exists: their seeds stay withheld until the
-- test has finished, on this server and on the next.
CREATE TABLE IF NOT EXISTS sprt_matches (
	sprt_id TEXT NOT NULL REFERENCES sprt_runs(id),
	match_id TEXT NOT NULL,
	PRIMARY KEY (sprt_id, match_id)
);
`

type db struct{ *sql.DB }

func openDB(s *store.DB) (*db, error) {
	if s == nil {
		return nil, errors.New("strength: needs the arena's store")
	}
	if err := s.CreateTables(schema); err != nil {
		return nil, fmt.Errorf("strength: create tables: %w", err)
	}
	return &db{s.SQL()}, nil
}

func (d *db) insert(ctx context.Context, t *test) error {
	spec, err := proto.Marshal(t.spec)
	if err != nil {
		return err
	}
	_, err = d.ExecContext(ctx, `INSERT INTO sprt_runs (id, spec, created_ns, status) VALUES (?,?,?,?)`,
		t.id, spec, store.UnixNano(t.created), int32(orreryv1.SPRTStatus_SPRT_STATUS_RUNNING))
	return err
}

func (d *db) addMatch(ctx context.Context, id, matchID string) error {
	_, err := d.ExecContext(ctx, `INSERT INTO sprt_matches (sprt_id, match_id) VALUES (?,?)`, id, matchID)
	return err
}

func (d *db) addPair(ctx context.Context, id string, p *orreryv1.SPRTPair) error {
	b, err := protojson.Marshal(p)
	if err != nil {
		return err
	}
	_, err = d.ExecContext(ctx, `INSERT INTO sprt_pairs (sprt_id, deal, pair) VALUES (?,?,?)`, id, p.GetDeal(), string(b))
	return err
}

func (d *db) finish(ctx context.Context, id string, status orreryv1.SPRTStatus, failure string, at time.Time) error {
	_, err := d.ExecContext(ctx, `UPDATE sprt_runs SET status = ?, failure = ?, finished_ns = ? WHERE id = ?`,
		int32(status), failure, store.UnixNano(at), id)
	return err
}

// unfinished is the running tests' ids, oldest first.
func (d *db) unfinished(ctx context.Context) ([]string, error) {
	return d.strings(ctx, `SELECT id FROM sprt_runs WHERE status = ? ORDER BY created_ns`, int32(orreryv1.SPRTStatus_SPRT_STATUS_RUNNING))
}

func (d *db) matchIDs(ctx context.Context, id string) ([]string, error) {
	return d.strings(ctx, `SELECT match_id FROM sprt_matches WHERE sprt_id = ? ORDER BY match_id`, id)
}

// page is the ids of a page of tests, newest first.
func (d *db) page(ctx context.Context, offset, size int) ([]string, error) {
	return d.strings(ctx, `SELECT id FROM sprt_runs ORDER BY created_ns DESC, id LIMIT ? OFFSET ?`, size, offset)
}

func (d *db) strings(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := d.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// errNoTest is load's answer for an id no test has.
var errNoTest = errors.New("no such test")

// load reads a test and its pairs, and recounts its state.
func (d *db) load(ctx context.Context, id string) (*test, error) {
	var spec []byte
	var created, finished int64
	var status int32
	var failure string
	err := d.QueryRowContext(ctx, `SELECT spec, created_ns, finished_ns, status, failure FROM sprt_runs WHERE id = ?`, id).
		Scan(&spec, &created, &finished, &status, &failure)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoTest
	}
	if err != nil {
		return nil, err
	}
	req := &orreryv1.StartSPRTRequest{}
	if err := proto.Unmarshal(spec, req); err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	t := newTest(id, req, store.FromUnixNano(created))
	t.status, t.failure = orreryv1.SPRTStatus(status), failure
	if finished != 0 {
		t.finished = store.FromUnixNano(finished)
	}
	rows, err := d.QueryContext(ctx, `SELECT pair FROM sprt_pairs WHERE sprt_id = ? ORDER BY deal`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var js string
		if err := rows.Scan(&js); err != nil {
			return nil, err
		}
		p := &orreryv1.SPRTPair{}
		if err := protojson.Unmarshal([]byte(js), p); err != nil {
			return nil, fmt.Errorf("pair: %w", err)
		}
		t.pairs = append(t.pairs, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := t.check(); err != nil {
		return nil, err
	}
	t.recount()
	return t, nil
}
