package tournament

import (
	"context"
	"time"
)

// The matches of a duplicate set share one seed, so the seed, the replay or the all-seeing
// view of a set's match that has ended would show the hidden cards of the set's others: each
// is withheld until every match of the set has ended.
//
// A set's match is sealed in the database (tournament_seals), in the transaction that
// records its id, before the match is created, and a set ends when its last slot is recorded
// as ended. On a cluster every node asks the database each time, so a node that neither
// created the match nor runs it withholds its seed from the moment it exists: a node that
// learned of seals from a sweep once a second revealed seeds in between. A single server
// creates and ends every match itself, so it keeps its seals in memory and asks nothing.

// sealRead bounds a seal's read, which the arena makes under a match's lock.
const sealRead = 5 * time.Second

// Withheld reports whether match id belongs to a duplicate set still being played.
func (s *Service) Withheld(id string) bool {
	if s.cfg.Cluster != nil {
		return s.sealedInStore(id)
	}
	s.sealMu.Lock()
	defer s.sealMu.Unlock()
	_, ok := s.sealed[id]
	return ok
}

// sealedInStore reads match id's seal: withheld, when the database cannot say.
func (s *Service) sealedInStore(id string) bool {
	ctx, cancel := context.WithTimeout(s.ctx, sealRead)
	defer cancel()
	sealed, err := s.db.sealed(ctx, id)
	if err != nil {
		s.log.Warn("tournament: cannot read a match's seal; its seed stays withheld", "match", id, "err", err)
		return true
	}
	return sealed
}

// seal withholds match id's seed on this server (without a cluster).
func (s *Service) seal(id string) {
	s.sealMu.Lock()
	s.sealed[id] = struct{}{}
	s.sealMu.Unlock()
}

// unseal reveals the seeds of a set's matches on this server once the set has ended.
func (s *Service) unseal(ids []string) {
	s.sealMu.Lock()
	for _, id := range ids {
		delete(s.sealed, id)
	}
	s.sealMu.Unlock()
}

// sealed reports whether match id is sealed and a slot of its set has not ended.
func (d *db) sealed(ctx context.Context, matchID string) (bool, error) {
	var n int
	err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM tournament_seals s JOIN tournament_slots o
		ON o.tournament_id = s.tournament_id AND o.round = s.round AND o.set_no = s.set_no
		WHERE s.match_id = ? AND o.ended = 0`, matchID).Scan(&n)
	return n > 0, err
}

// sealAll seals every match tournament id has started, in its set: for a duplicate
// tournament stored before seals were, and for one that cannot be read, whose sets then
// stay withheld until they end.
func (d *db) sealAll(ctx context.Context, id string) error {
	_, err := d.ExecContext(ctx, `INSERT INTO tournament_seals (match_id, tournament_id, round, set_no)
		SELECT match_id, tournament_id, round, set_no FROM tournament_slots WHERE tournament_id = ? AND match_id != ''
		ON CONFLICT (match_id) DO NOTHING`, id)
	return err
}
