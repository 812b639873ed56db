package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Module is one version of a hosted bot's WebAssembly module (migration 00009).
type Module struct {
	Bot      string
	Version  int
	Digest   string // the hex SHA-256 of Wasm: the bytes are stored once per digest
	Size     int64
	Games    []string
	Uploaded time.Time
	Wasm     []byte // set by LatestModule and ModuleVersion only
}

// PutModule stores wasm (whose digest the caller has computed, and validated it by compiling
// it) as the next version of bot's module, and returns that version.
func (d *DB) PutModule(ctx context.Context, m *Module) (int, error) {
	games, err := json.Marshal(m.Games)
	if err != nil {
		return 0, err
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO module_blobs (digest, wasm) VALUES (?, ?) ON CONFLICT (digest) DO NOTHING`, m.Digest, m.Wasm); err != nil {
		return 0, fmt.Errorf("store module %s: %w", m.Digest, err)
	}
	var last sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(version) FROM bot_modules WHERE bot = ?`, m.Bot).Scan(&last); err != nil {
		return 0, err
	}
	m.Version = int(last.Int64) + 1
	if _, err := tx.ExecContext(ctx, `INSERT INTO bot_modules (bot, version, digest, size, games, uploaded_ns) VALUES (?,?,?,?,?,?)`,
		m.Bot, m.Version, m.Digest, m.Size, string(games), UnixNano(m.Uploaded)); err != nil {
		return 0, fmt.Errorf("store module version of %s: %w", m.Bot, err)
	}
	return m.Version, tx.Commit()
}

const moduleColumns = `m.bot, m.version, m.digest, m.size, m.games, m.uploaded_ns`

func scanModule(sc interface{ Scan(...any) error }, m *Module, extra ...any) error {
	var games string
	var uploaded int64
	if err := sc.Scan(append([]any{&m.Bot, &m.Version, &m.Digest, &m.Size, &games, &uploaded}, extra...)...); err != nil {
		return err
	}
	m.Uploaded = time.Unix(0, uploaded)
	return json.Unmarshal([]byte(games), &m.Games)
}

// Modules lists bot's module versions, newest first, without their bytes.
func (d *DB) Modules(ctx context.Context, bot string) ([]*Module, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT `+moduleColumns+` FROM bot_modules m WHERE m.bot = ? ORDER BY m.version DESC`, bot)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Module
	for rows.Next() {
		m := new(Module)
		if err := scanModule(rows, m); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// ModuleVersion is version of bot's module with its bytes; version 0 is the newest.
// ErrNotFound if there is none.
func (d *DB) ModuleVersion(ctx context.Context, bot string, version int) (*Module, error) {
	q := `SELECT ` + moduleColumns + `, b.wasm FROM bot_modules m JOIN module_blobs b ON b.digest = m.digest WHERE m.bot = ?`
	args := []any{bot}
	if version > 0 {
		q += ` AND m.version = ?`
		args = append(args, version)
	} else {
		q += ` ORDER BY m.version DESC LIMIT 1`
	}
	m := new(Module)
	err := scanModule(d.db.QueryRowContext(ctx, q, args...), m, &m.Wasm)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return m, err
}

// HostedBots lists the bots with a module, each with its newest version (no bytes).
func (d *DB) HostedBots(ctx context.Context) ([]*Module, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT `+moduleColumns+` FROM bot_modules m
		WHERE m.version = (SELECT MAX(version) FROM bot_modules n WHERE n.bot = m.bot) ORDER BY m.bot`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Module
	for rows.Next() {
		m := new(Module)
		if err := scanModule(rows, m); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// HostedSeat is one seat a hosted bot played, recorded once its play ended.
type HostedSeat struct {
	MatchID   string
	Seat      int
	Bot       string
	Version   int
	Verdict   string // empty: none
	Detail    string
	Stderr    string // bounded by the runtime
	Decisions int
	CPU       time.Duration
	Ended     time.Time
}

// RecordHostedSeat stores (or, for a seat played again after a restart, replaces) s.
func (d *DB) RecordHostedSeat(ctx context.Context, s *HostedSeat) error {
	_, err := d.db.ExecContext(ctx, `INSERT INTO hosted_seats (match_id, seat, bot, version, verdict, detail, stderr, decisions, cpu_ns, ended_ns)
		VALUES (?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT (match_id, seat) DO UPDATE SET version = excluded.version, verdict = excluded.verdict, detail = excluded.detail,
			stderr = excluded.stderr, decisions = excluded.decisions, cpu_ns = excluded.cpu_ns, ended_ns = excluded.ended_ns`,
		s.MatchID, s.Seat, s.Bot, s.Version, s.Verdict, s.Detail, s.Stderr, s.Decisions, int64(s.CPU), UnixNano(s.Ended))
	return err
}

// HostedSeats is bot's newest n seats, newest first.
func (d *DB) HostedSeats(ctx context.Context, bot string, n int) ([]*HostedSeat, error) {
	return d.hostedSeats(ctx, `WHERE bot = ? ORDER BY ended_ns DESC LIMIT ?`, bot, n)
}

// HostedSeatsIn is bot's seats in match id, however old, by seat.
func (d *DB) HostedSeatsIn(ctx context.Context, bot, id string) ([]*HostedSeat, error) {
	return d.hostedSeats(ctx, `WHERE bot = ? AND match_id = ? ORDER BY seat`, bot, id)
}

func (d *DB) hostedSeats(ctx context.Context, where string, args ...any) ([]*HostedSeat, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT match_id, seat, bot, version, verdict, detail, stderr, decisions, cpu_ns, ended_ns
		FROM hosted_seats `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*HostedSeat
	for rows.Next() {
		s := new(HostedSeat)
		var cpu, ended int64
		if err := rows.Scan(&s.MatchID, &s.Seat, &s.Bot, &s.Version, &s.Verdict, &s.Detail, &s.Stderr, &s.Decisions, &cpu, &ended); err != nil {
			return nil, err
		}
		s.CPU, s.Ended = time.Duration(cpu), time.Unix(0, ended)
		out = append(out, s)
	}
	return out, rows.Err()
}

// HostedVerdicts counts bot's verdicts by kind, over every seat it played.
func (d *DB) HostedVerdicts(ctx context.Context, bot string) (map[string]int, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT verdict, COUNT(*) FROM hosted_seats WHERE bot = ? AND verdict != '' GROUP BY verdict`, bot)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, rows.Err()
}
