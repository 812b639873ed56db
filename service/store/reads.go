package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

func scanMatch(row interface{ Scan(...any) error }) (*Match, int64, error) {
	var (
		m                            Match
		options, seed, names, tokens string
		bots, houseBots              string
		perMove, increment, bank, cr int64
		ended                        int64
		result                       sql.NullString
		rowid                        int64
	)
	if err := row.Scan(&m.ID, &m.Game, &m.Seats, &options, &seed, &m.SeedSalt, &m.SeedHash, &names, &tokens, &perMove,
		&increment, &bank, &m.WallClock, &m.TimeoutPolicy, &cr, &ended, &result, &bots, &m.CreatorHash, &houseBots, &rowid); err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal([]byte(options), &m.Options); err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal([]byte(names), &m.Names); err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal([]byte(tokens), &m.TokenHashes); err != nil {
		return nil, 0, err
	}
	var err error
	if m.Bots, err = botsOf(bots); err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal([]byte(houseBots), &m.HouseBots); err != nil {
		return nil, 0, err
	}
	if !slices.ContainsFunc(m.HouseBots, func(b string) bool { return b != "" }) {
		m.HouseBots = nil
	}
	if _, err := fmt.Sscan(seed, &m.Seed); err != nil {
		return nil, 0, err
	}
	m.PerMove, m.Increment, m.TimeBank = time.Duration(perMove), time.Duration(increment), time.Duration(bank)
	m.Created = time.Unix(0, cr)
	if ended != 0 {
		m.Ended = time.Unix(0, ended)
	}
	if result.Valid {
		m.Result = new(Result)
		if err := json.Unmarshal([]byte(result.String), m.Result); err != nil {
			return nil, 0, err
		}
	}
	return &m, rowid, nil
}

// Match loads one match.
func (d *DB) Match(ctx context.Context, id string) (*Match, error) {
	m, _, err := scanMatch(d.db.QueryRowContext(ctx, `SELECT `+matchColumns+` FROM `+WithResults+` WHERE m.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("match %q: %w", id, ErrNotFound)
	}
	return m, err
}

// Steps loads a match's action log in order, from the three places its steps may be
// (steplog.go). The log is read first: a compaction between the reads moves steps from it
// to the runs, never back.
func (d *DB) Steps(ctx context.Context, id string) ([]Step, error) {
	logged, err := d.loggedSteps(ctx, id)
	if err != nil {
		return nil, err
	}
	runs, err := d.runSteps(ctx, id)
	if err != nil {
		return nil, err
	}
	stored, err := d.storedSteps(ctx, id)
	if err != nil {
		return nil, err
	}
	return mergeSteps(append(stored, runs...), logged), nil
}

// storedSteps are a match's steps in the steps table (written before the step log), in order.
func (d *DB) storedSteps(ctx context.Context, id string) ([]Step, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT seq, seat, notation, timed_out, bank_ns FROM steps WHERE match_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var steps []Step
	for rows.Next() {
		var s Step
		var bank int64
		if err := rows.Scan(&s.Seq, &s.Seat, &s.Notation, &s.TimedOut, &bank); err != nil {
			return nil, err
		}
		s.Bank = time.Duration(bank)
		steps = append(steps, s)
	}
	return steps, rows.Err()
}

// MatchByToken is the match that has a seat whose token hashes to tokenHash (hex), running,
// ended or failed, so that a seat of a match no longer in memory (ended, or failed at a
// restart) is told what became of it; ErrNotFound otherwise. matchID is the match the token
// names (a token is MATCH_ID.SECRET), "" for a token that names none: those issued before
// that format are found by their hash in seat_tokens, which new matches no longer fill (four
// rows keyed by random hashes, each a page written: three in four of the pages of creating
// a match).
func (d *DB) MatchByToken(ctx context.Context, matchID, tokenHash string) (*Match, error) {
	if matchID != "" {
		m, err := d.Match(ctx, matchID)
		if err == nil && slices.Contains(m.TokenHashes, tokenHash) {
			return m, nil
		}
		if err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	m, _, err := scanMatch(d.db.QueryRowContext(ctx, `SELECT `+matchColumns+` FROM `+WithResults+`
		WHERE m.id IN (SELECT match_id FROM seat_tokens WHERE token_hash = ?)`, tokenHash))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return m, err
}

// Unfinished lists the matches that have no result, oldest first, for resuming after a restart.
func (d *DB) Unfinished(ctx context.Context) ([]*Match, error) {
	return d.query(ctx, `SELECT `+matchColumns+` FROM `+WithResults+` WHERE `+IsRunning+` ORDER BY m.rowid_`)
}

// List lists matches newest first, and the page token of the next page ("" at the end).
func (d *DB) List(ctx context.Context, f Filter) ([]*Match, string, error) {
	var where []string
	var args []any
	if f.Game != "" {
		where = append(where, "m.game = ?")
		args = append(args, f.Game)
	}
	switch f.Status {
	case Running:
		where = append(where, IsRunning)
	case Finished:
		where = append(where, fmt.Sprintf("r.reason != %d", ReasonFailed))
	case Failed:
		where = append(where, fmt.Sprintf("r.reason = %d", ReasonFailed))
	}
	if f.SeatName != "" {
		where = append(where, d.hasElement("names"))
		args = append(args, f.SeatName)
	}
	if f.Bot != 0 {
		where = append(where, d.hasElement("bots"))
		args = append(args, strconv.FormatInt(f.Bot, 10))
	}
	if f.Before != "" {
		where = append(where, "m.rowid_ < (SELECT rowid_ FROM matches WHERE id = ?)")
		args = append(args, f.Before)
	}
	q := `SELECT ` + matchColumns + ` FROM ` + WithResults
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	if f.Limit <= 0 {
		f.Limit = 50
	}
	q += fmt.Sprintf(" ORDER BY m.rowid_ DESC LIMIT %d", f.Limit+1)
	ms, err := d.query(ctx, q, args...)
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(ms) > f.Limit {
		ms = ms[:f.Limit]
		next = ms[len(ms)-1].ID
	}
	return ms, next, nil
}

func (d *DB) query(ctx context.Context, q string, args ...any) ([]*Match, error) {
	rows, err := d.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Match
	for rows.Next() {
		m, _, err := scanMatch(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
