package store

import "fmt"

// tablesLock serialises the creation of the tables packages keep beside the matches, among
// nodes of a cluster starting together: PostgreSQL's CREATE TABLE IF NOT EXISTS is not safe
// against itself.
const tablesLock int64 = 0x6f72726572790003

// CreateTables creates a package's tables (schema, in SQLite's words, translated by DDL) if
// they do not exist, in one transaction, one node at a time.
func (d *DB) CreateTables(schema string) error {
	tx, err := d.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if d.dialect == Postgres {
		if _, err := tx.Exec(`SELECT pg_advisory_xact_lock(?)`, tablesLock); err != nil {
			return fmt.Errorf("store: lock the schema: %w", err)
		}
	}
	if _, err := tx.Exec(d.DDL(schema)); err != nil {
		return err
	}
	return tx.Commit()
}
