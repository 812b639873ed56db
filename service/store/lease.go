package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Node is a server of a cluster as its peers find it: its id and the gRPC address it
// advertises, for forwarding.
type Node struct {
	ID   string
	Addr string
	Seen time.Time // its last heartbeat
}

// Lease says which node owns a running match, until when.
type Lease struct {
	MatchID string
	Node    Node
	Expires time.Time
}

// Times are the nodes' own clocks: a lease's length must dwarf their skew (NTP keeps it to
// milliseconds; leases last seconds).

// Heartbeat records that node is alive at addr and extends every lease it holds to now+ttl,
// in one transaction; it returns how many leases it renewed.
func (d *DB) Heartbeat(ctx context.Context, node, addr string, now time.Time, ttl time.Duration) (int64, error) {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO nodes (id, addr, seen_ns) VALUES (?,?,?)
		ON CONFLICT (id) DO UPDATE SET addr = excluded.addr, seen_ns = excluded.seen_ns`, node, addr, now.UnixNano()); err != nil {
		return 0, fmt.Errorf("store: heartbeat of node %s: %w", node, err)
	}
	// Only leases still valid: one that expired may already be another node's.
	res, err := tx.ExecContext(ctx, `UPDATE leases SET expires_ns = ? WHERE node_id = ? AND expires_ns >= ?`,
		now.Add(ttl).UnixNano(), node, now.UnixNano())
	if err != nil {
		return 0, fmt.Errorf("store: renew the leases of node %s: %w", node, err)
	}
	n, _ := res.RowsAffected()
	return n, tx.Commit()
}

// Acquire makes node the owner of match until now+ttl if nobody else holds a valid lease on
// it, and reports whether node owns it now. Of nodes racing for one expired lease, one wins.
func (d *DB) Acquire(ctx context.Context, match, node string, now time.Time, ttl time.Duration) (bool, error) {
	d.leasing.Store(true) // before the lease exists: a result of match deletes it from now on
	res, err := d.db.ExecContext(ctx, `INSERT INTO leases (match_id, node_id, expires_ns) VALUES (?,?,?)
		ON CONFLICT (match_id) DO UPDATE SET node_id = excluded.node_id, expires_ns = excluded.expires_ns
		WHERE leases.node_id = excluded.node_id OR leases.expires_ns < ?`,
		match, node, now.Add(ttl).UnixNano(), now.UnixNano())
	if err != nil {
		return false, fmt.Errorf("store: lease of %s for node %s: %w", match, node, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Release gives up node's lease on match (the match ended, or the node stops cleanly).
func (d *DB) Release(ctx context.Context, match, node string) error {
	_, err := d.db.ExecContext(ctx, `DELETE FROM leases WHERE match_id = ? AND node_id = ?`, match, node)
	return err
}

// Owner is the lease on match and its node's address; ErrNotFound if nobody holds one.
// An expired lease is returned as it stands: the caller compares Expires with its clock.
func (d *DB) Owner(ctx context.Context, match string) (*Lease, error) {
	var l Lease
	var expires, seen int64
	err := d.db.QueryRowContext(ctx, `SELECT l.match_id, l.node_id, COALESCE(n.addr, ''), COALESCE(n.seen_ns, 0), l.expires_ns
		FROM leases l LEFT JOIN nodes n ON n.id = l.node_id WHERE l.match_id = ?`, match).
		Scan(&l.MatchID, &l.Node.ID, &l.Node.Addr, &seen, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("lease of %q: %w", match, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	l.Node.Seen, l.Expires = time.Unix(0, seen), time.Unix(0, expires)
	return &l, nil
}

// Orphans lists the running matches that no node holds a valid lease on at now, oldest
// first: the matches a live node should take and rebuild from their logs.
func (d *DB) Orphans(ctx context.Context, now time.Time) ([]*Match, error) {
	return d.query(ctx, `SELECT `+matchColumns+` FROM `+WithResults+` LEFT JOIN leases l ON l.match_id = m.id
		WHERE `+IsRunning+` AND (l.match_id IS NULL OR l.expires_ns < ?) ORDER BY m.rowid_`, now.UnixNano())
}

// RunningByToken is the id of the running match that has a seat whose token hashes to
// tokenHash (hex); ErrNotFound if none. A node that does not hold a seat's match finds it
// here, to forward the seat's stream to the match's owner.
func (d *DB) RunningByToken(ctx context.Context, tokenHash string) (string, error) {
	var id string
	err := d.db.QueryRowContext(ctx, `SELECT m.id FROM matches m WHERE `+IsRunning+` AND `+d.hasElement("token_hashes"), tokenHash).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	return id, err
}

// NodeLoad is a live node and how many running matches it holds the lease of.
type NodeLoad struct {
	Node
	Matches int
}

// Live lists the nodes seen since since (a heartbeat within a lease's length), each with
// the number of valid leases it holds at now, least loaded first: where a new match goes.
func (d *DB) Live(ctx context.Context, since, now time.Time) ([]NodeLoad, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT n.id, n.addr, n.seen_ns, COUNT(l.match_id) FROM nodes n
		LEFT JOIN leases l ON l.node_id = n.id AND l.expires_ns >= ?
		WHERE n.seen_ns >= ? GROUP BY n.id, n.addr, n.seen_ns ORDER BY COUNT(l.match_id), n.id`, now.UnixNano(), since.UnixNano())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []NodeLoad
	for rows.Next() {
		var n NodeLoad
		var seen int64
		if err := rows.Scan(&n.ID, &n.Addr, &seen, &n.Matches); err != nil {
			return nil, err
		}
		n.Seen = time.Unix(0, seen)
		out = append(out, n)
	}
	return out, rows.Err()
}

// WriteLeasedBatch is WriteBatch for a node of a cluster, fenced by the leases: in the same
// transaction it reads the leases of the batch's matches and writes only the steps and
// results of the matches node holds a lease on that runs at least until until. It returns
// the matches it left out: their leases lapsed (or are about to), so another node may own
// them and write their logs. The lease rows are read, not locked, so that the node's
// renewal never waits for its writer: until must lie far enough ahead of the node's clock
// (a third of a lease) that no other node can take a lease between the check and the commit.
func (d *DB) WriteLeasedBatch(ctx context.Context, node string, until time.Time, b Batch) (lost []string, err error) {
	if err := d.checkNext(b.Steps); err != nil {
		return nil, err
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var ids []string
	seen := map[string]bool{}
	for _, s := range b.Steps {
		if !seen[s.Match] {
			seen[s.Match] = true
			ids = append(ids, s.Match)
		}
	}
	for _, f := range b.Results {
		if !seen[f.Match] {
			seen[f.Match] = true
			ids = append(ids, f.Match)
		}
	}
	held, err := holdLeases(ctx, tx, node, until, ids)
	if err != nil {
		return nil, err
	}
	if len(held) < len(ids) {
		kept := Batch{Steps: make([]MatchStep, 0, len(b.Steps))}
		for _, s := range b.Steps {
			if held[s.Match] {
				kept.Steps = append(kept.Steps, s)
			}
		}
		for _, f := range b.Results {
			if held[f.Match] {
				kept.Results = append(kept.Results, f)
			}
		}
		b = kept
		for _, id := range ids {
			if !held[id] {
				lost = append(lost, id)
			}
		}
	}
	compacted, err := d.writeTx(ctx, tx, b)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	d.written(b)
	d.forget(lost)
	d.logged(len(b.Steps), compacted)
	return lost, nil
}

// AppendLeasedSteps is WriteLeasedBatch of steps alone.
func (d *DB) AppendLeasedSteps(ctx context.Context, node string, until time.Time, batch []MatchStep) (lost []string, err error) {
	return d.WriteLeasedBatch(ctx, node, until, Batch{Steps: batch})
}

// FinishLeased records a match's result if node holds a lease on it that runs at least until
// until, checked and written in one transaction as WriteLeasedBatch does; it reports
// whether it did.
func (d *DB) FinishLeased(ctx context.Context, node string, until time.Time, match string, ended time.Time, r *Result) (bool, error) {
	lost, err := d.WriteLeasedBatch(ctx, node, until, Batch{Results: []Finish{{Match: match, Ended: ended, Result: r}}})
	return err == nil && len(lost) == 0, err
}

// holdLeases lists, inside tx, the matches among matches whose lease node holds until at
// least until.
func holdLeases(ctx context.Context, tx *sql.Tx, node string, until time.Time, matches []string) (map[string]bool, error) {
	held := make(map[string]bool, len(matches))
	const chunk = 500
	for len(matches) > 0 {
		n := min(len(matches), chunk)
		args := []any{node, until.UnixNano()}
		for _, id := range matches[:n] {
			args = append(args, id)
		}
		rows, err := tx.QueryContext(ctx, `SELECT match_id FROM leases WHERE node_id = ? AND expires_ns >= ?
			AND match_id IN (?`+strings.Repeat(",?", n-1)+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("store: leases of node %s: %w", node, err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			held[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		matches = matches[n:]
	}
	return held, nil
}

// ReleaseMatches hands back node's leases on matches (it was cut off from the database and
// dropped them from memory): they are orphans at once, for any live node to take.
func (d *DB) ReleaseMatches(ctx context.Context, node string, matches []string) error {
	for len(matches) > 0 {
		n := min(len(matches), 500)
		args := []any{node}
		for _, id := range matches[:n] {
			args = append(args, id)
		}
		if _, err := d.db.ExecContext(ctx, `DELETE FROM leases WHERE node_id = ? AND match_id IN (?`+strings.Repeat(",?", n-1)+`)`, args...); err != nil {
			return fmt.Errorf("store: release the leases of node %s: %w", node, err)
		}
		matches = matches[n:]
	}
	return nil
}

// Leave takes node out of the cluster when it stops cleanly: its leases are deleted, so the
// other nodes take its matches at their next heartbeat rather than a lease's length later,
// and it is no longer listed as live (no match is placed on it). It returns how many
// leases it handed back.
func (d *DB) Leave(ctx context.Context, node string) (int64, error) {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM leases WHERE node_id = ?`, node)
	if err != nil {
		return 0, fmt.Errorf("store: release the leases of node %s: %w", node, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM nodes WHERE id = ?`, node); err != nil {
		return 0, fmt.Errorf("store: node %s leaves: %w", node, err)
	}
	n, _ := res.RowsAffected()
	return n, tx.Commit()
}

// Held lists the running matches node holds a valid lease on at now, by id.
func (d *DB) Held(ctx context.Context, node string, now time.Time) ([]string, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT l.match_id FROM leases l JOIN matches m ON m.id = l.match_id
		WHERE l.node_id = ? AND l.expires_ns >= ? AND `+IsRunning, node, now.UnixNano())
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

// ClusterKey is the secret the nodes sharing this database sign their relayed calls with:
// drawn by the first node that asks, the same for every node after.
func (d *DB) ClusterKey(ctx context.Context) ([]byte, error) {
	secret := make([]byte, 32)
	rand.Read(secret) // crypto/rand never fails on supported platforms
	if _, err := d.db.ExecContext(ctx, `INSERT INTO cluster_key (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING`, secret); err != nil {
		return nil, fmt.Errorf("cluster key: %w", err)
	}
	var got []byte
	if err := d.db.QueryRowContext(ctx, `SELECT secret FROM cluster_key WHERE id = 1`).Scan(&got); err != nil {
		return nil, fmt.Errorf("cluster key: %w", err)
	}
	return got, nil
}
