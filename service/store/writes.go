package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/bits"
	"time"
)

// Writing matches: their creation, steps and results, in batched transactions.
// creation is a CreateMatch call waiting for its transaction.
type creation struct {
	ctx  context.Context
	m    *Match
	err  chan error    // its answer, once its match is committed or has failed
	lead chan struct{} // closed when it is to write the calls queued
}

// CreateMatch stores a new match, and its seats' token hashes in the index of tokens. It
// returns once the match is committed. Calls made while another is writing wait, and are
// then written together in one transaction by the first of them: a commit costs more than
// a match's rows, and many clients (or the ladder) create at once.
func (d *DB) CreateMatch(ctx context.Context, m *Match) error {
	c := &creation{ctx: ctx, m: m, err: make(chan error, 1), lead: make(chan struct{})}
	d.createMu.Lock()
	d.creating = append(d.creating, c)
	leads := !d.createBusy
	d.createBusy = true
	d.createMu.Unlock()
	if !leads {
		select {
		case err := <-c.err:
			return err
		case <-c.lead:
		}
	}
	d.createMu.Lock()
	queued := d.creating
	d.creating = nil
	d.createMu.Unlock()
	d.createAll(queued)
	d.createMu.Lock()
	if len(d.creating) > 0 {
		close(d.creating[0].lead) // who came meanwhile: the first writes them, not this caller
	} else {
		d.createBusy = false
	}
	d.createMu.Unlock()
	return <-c.err
}

// createAll writes queued creations in one transaction (in the context of the first, the
// caller writing them) and answers each; if that fails, each in its own, so that each
// caller hears of its own match only (a duplicate id, its own context ended).
func (d *DB) createAll(queued []*creation) {
	if len(queued) > 1 {
		if err := d.createTx(queued[0].ctx, queued); err == nil {
			for _, c := range queued {
				c.err <- nil
			}
			return
		}
	}
	for _, c := range queued {
		c.err <- d.createTx(c.ctx, []*creation{c})
	}
}

// createTx stores the matches of queued in one transaction.
func (d *DB) createTx(ctx context.Context, queued []*creation) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	insert, err := d.prepared(ctx, tx, createQuery)
	if err != nil {
		return err
	}
	running, err := d.prepared(ctx, tx, runningQuery)
	if err != nil {
		return err
	}
	rowids := make([]int64, len(queued))
	for i, c := range queued {
		m := c.m
		err = insert.QueryRowContext(ctx,
			m.ID, m.Game, m.Seats, JSON(m.Options), fmt.Sprint(m.Seed), m.SeedSalt, m.SeedHash, JSON(m.Names),
			JSON(m.TokenHashes), int64(m.PerMove), int64(m.Increment), int64(m.TimeBank), m.WallClock, m.TimeoutPolicy,
			m.Created.UnixNano(), JSON(botsText(m.Bots)), m.CreatorHash, JSON(houseBotsText(m.HouseBots, m.Seats))).Scan(&rowids[i])
		if err != nil {
			return err
		}
		if _, err := running.ExecContext(ctx, rowids[i]); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	d.createTxs.Add(1)
	d.nextMu.Lock()
	for i, c := range queued {
		d.rowids[c.m.ID] = rowids[i]
	}
	d.nextMu.Unlock()
	return nil
}

// AppendSteps appends steps to a match's action log, in one transaction.
func (d *DB) AppendSteps(ctx context.Context, matchID string, steps []Step) error {
	batch := make([]MatchStep, len(steps))
	for i, s := range steps {
		batch[i] = MatchStep{Match: matchID, Step: s}
	}
	return d.AppendStepBatch(ctx, batch)
}

// MatchStep is one step of one match's log.
type MatchStep struct {
	Match string
	Step
}

// AppendStepBatch appends the steps of many matches in one transaction, in the order
// given: a server running many matches commits once per batch, not once per match.
func (d *DB) AppendStepBatch(ctx context.Context, batch []MatchStep) error {
	return d.WriteBatch(ctx, Batch{Steps: batch})
}

// FinishMatch records a match's result.
func (d *DB) FinishMatch(ctx context.Context, matchID string, ended time.Time, r *Result) error {
	return d.FinishMatchTx(ctx, nil, matchID, ended, r)
}

// FinishMatchTx records a match's result inside tx (or on its own if tx is nil).
func (d *DB) FinishMatchTx(ctx context.Context, tx *sql.Tx, matchID string, ended time.Time, r *Result) error {
	if tx == nil {
		return d.WriteBatch(ctx, Batch{Results: []Finish{{Match: matchID, Ended: ended, Result: r}}})
	}
	return d.finishTx(ctx, tx, []Finish{{Match: matchID, Ended: ended, Result: r}})
}

// finishTx records the results of a batch inside tx. Its statements are bound to tx once,
// not once a result; the results go in INSERTs of up to maxFinishRows rows, and the leases
// (if any may exist) unleaseChunk at a time: a thousand matches end a few hundred times a
// second, and each statement run costs as much as the row it writes.
func (d *DB) finishTx(ctx context.Context, tx *sql.Tx, results []Finish) error {
	args := make([]any, 0, finishColumns*len(results))
	for _, f := range results {
		rowid, err := d.rowidTx(ctx, tx, f.Match)
		if err != nil {
			return err
		}
		var reason int32
		if f.Result != nil {
			reason = f.Result.Reason
		}
		// One INSERT may not give a row two results (PostgreSQL refuses it): the last given
		// stands, as it did when each had a statement of its own.
		at := len(args)
		for i := 0; i < len(args); i += finishColumns {
			if args[i] == any(rowid) {
				at = i
				break
			}
		}
		if at == len(args) {
			args = append(args, nil, nil, nil, nil)
		}
		args[at], args[at+1], args[at+2], args[at+3] = rowid, f.Ended.UnixNano(), reason, JSON(f.Result)
	}
	for len(args) > 0 {
		// The most rows of a prepared statement: as many as are left, or a power of two.
		i := bits.Len(uint(min(len(args)/finishColumns, maxFinishRows))) - 1
		n := 1 << i
		finish, err := d.prepared(ctx, tx, finishQueries[i])
		if err != nil {
			return err
		}
		if _, err := finish.ExecContext(ctx, args[:n*finishColumns]...); err != nil {
			return fmt.Errorf("store: results of %d matches: %w", n, err)
		}
		args = args[n*finishColumns:]
	}
	if !d.leasing.Load() {
		return nil
	}
	unlease, err := d.prepared(ctx, tx, unleaseQuery)
	if err != nil {
		return err
	}
	args = make([]any, unleaseChunk)
	for len(results) > 0 {
		n := min(len(results), unleaseChunk)
		for i := range args {
			args[i] = results[min(i, n-1)].Match // a short chunk names its last match again
		}
		if _, err := unlease.ExecContext(ctx, args...); err != nil {
			return err
		}
		results = results[n:]
	}
	return nil
}

// rowidTx is match's rowid_: remembered if this store created it, else read inside tx.
func (d *DB) rowidTx(ctx context.Context, tx *sql.Tx, match string) (int64, error) {
	d.nextMu.Lock()
	rowid, ok := d.rowids[match]
	d.nextMu.Unlock()
	if ok {
		return rowid, nil
	}
	err := tx.QueryRowContext(ctx, `SELECT rowid_ FROM matches WHERE id = ?`, match).Scan(&rowid)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("store: finish %s: %w", match, ErrNotFound)
	}
	return rowid, err
}
