package service

import (
	"context"
	"encoding/hex"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/match"
	"github.com/orrery/orrery/service/store"
)

// resume restarts every unfinished match in the store by replaying its log (on a node of a
// cluster: those it claims).
func (s *Server) resume(ctx context.Context) error {
	var recs []*store.Match
	var err error
	if s.cluster != nil {
		recs, err = s.cluster.Claim(ctx)
	} else {
		recs, err = s.store.Unfinished(ctx)
	}
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	if len(recs) > 1 {
		// Reading a match's log reads the whole of the store's step log (a node taking over
		// a dead one's matches finds it full): emptied once, not read once per match.
		if err := s.store.Compact(ctx); err != nil {
			s.log.Warn("resume: compact the step log", "err", err)
		}
	}
	for _, rec := range recs {
		r, err := match.Replay(ctx, s.store, rec)
		if err != nil {
			// A match that cannot go on is marked failed, never left running nor served as
			// ended; its seats are told so when they rejoin (Attach).
			s.log.Error("resume: cannot replay match; marking it failed", "match", rec.ID, "err", err)
			res := &store.Result{Reason: store.ReasonFailed, Detail: failedDetail}
			if err := s.store.FinishMatch(ctx, rec.ID, s.now(), res); err != nil {
				return fmt.Errorf("resume: mark match %s failed: %w", rec.ID, err)
			}
			s.metrics.MatchesFinished.WithLabelValues(rec.Game, orreryv1.EndReason_END_REASON_FAILED.String()).Inc()
			continue
		}
		tokens := storedTokens(rec)
		bots := s.reseat(rec, tokens)
		m := s.start(specOf(rec, storedClock(rec), s.actionCache(rec.Game, rec.Options)), r, tokens, storedHash(rec.CreatorHash))
		for seat, b := range bots {
			if m.Ended() {
				break
			}
			if err := s.cfg.HouseSeats.Seat(rec.Game, b.bot, b.token); err != nil {
				s.log.Warn("resume: a built-in bot could not take its seat again; the timeout policy plays it", "match", rec.ID, "seat", seat, "bot", b.bot, "err", err)
			}
		}
		s.mu.Lock()
		hold := s.holding
		s.mu.Unlock()
		if hold {
			m.Pause(s.now())
		}
		if s.cluster != nil {
			// On a cluster every match this finds was another node's, or this node's before
			// a restart: its lease lapsed or was handed back, and this node won it.
			s.log.Info("match taken over", "match", rec.ID, "game", rec.Game, "plies", r.Plies(), "node", s.cfg.Node.ID)
		} else {
			s.log.Info("match resumed", "match", rec.ID, "game", rec.Game, "plies", r.Plies())
		}
	}
	return nil
}

// failedDetail is what the API says of a match that could not be resumed. The exact cause
// stays in the server's log, which quotes no action: a failing step's notation may be a
// seat's secret.
const failedDetail = "the server could not resume this match from its log (its game or data changed); it will not go on"

// load rebuilds a finished match released from memory, for a spectator or a seat that
// rejoins; it is not kept. Only watchable and attachStored call it, with a stored match that
// has a result and did not fail.
func (s *Server) load(ctx context.Context, rec *store.Match) (*match.Match, error) {
	r, err := match.Replay(ctx, s.store, rec)
	if err != nil {
		return nil, status.Errorf(codes.DataLoss, "replay of %s: %v", rec.ID, err)
	}
	result := r.State().Result()
	if rec.Result != nil && rec.Result.Reason != int32(orreryv1.EndReason_END_REASON_NORMAL) && rec.Result.Reason != int32(orreryv1.EndReason_END_REASON_CAP) {
		result = engine.Result{Ranks: rec.Result.Ranks, Scores: rec.Result.Scores, Reason: wire.EngineEndReason(orreryv1.EndReason(rec.Result.Reason)), Detail: rec.Result.Detail}
	}
	var acked []int64
	if rec.Result != nil {
		acked = rec.Result.Acked
	}
	return match.Load(&s.env, specOf(rec, storedClock(rec), nil), r, rec.Ended, result, acked), nil
}

// houseSeat is a built-in bot to seat again and the seat's new token.
type houseSeat struct{ bot, token string }

// reseat gives each seat of rec that a built-in bot played (CreateMatchRequest.bots) a new
// token, in tokens, for its bot to take once the match is running again. Only the server
// ever held the old one, and the store keeps no token, only its hash: a new one locks no
// one out. Without built-in bots (a server started without them) the timeout policy plays
// those seats.
func (s *Server) reseat(rec *store.Match, tokens [][32]byte) map[int]houseSeat {
	if len(rec.HouseBots) == 0 {
		return nil
	}
	if s.cfg.HouseSeats == nil {
		s.log.Warn("resume: this server seats no built-in bots; the timeout policy plays the match's bot seats", "match", rec.ID)
		return nil
	}
	out := make(map[int]houseSeat)
	for seat, bot := range rec.HouseBots {
		if bot == "" || seat >= len(tokens) {
			continue
		}
		t := seatToken(rec.ID)
		tokens[seat] = hashToken(t)
		out[seat] = houseSeat{bot: bot, token: t}
	}
	return out
}

// storedTokens are the hashes of a stored match's seat tokens.
func storedTokens(rec *store.Match) [][32]byte {
	out := make([][32]byte, len(rec.TokenHashes))
	for i, h := range rec.TokenHashes {
		out[i] = storedHash(h)
	}
	return out
}

// storedHash is a token hash as the store keeps it (hex); zero for none.
func storedHash(h string) [32]byte {
	var out [32]byte
	if b, err := hex.DecodeString(h); err == nil && len(b) == 32 {
		copy(out[:], b)
	}
	return out
}
