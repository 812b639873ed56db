package hosted

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/orrery/orrery/service/store"
)

// ModuleStore keeps hosted bots' modules and what their seats did (service/store.DB).
type ModuleStore interface {
	PutModule(ctx context.Context, m *store.Module) (int, error)
	ModuleVersion(ctx context.Context, bot string, version int) (*store.Module, error)
	RecordHostedSeat(ctx context.Context, s *store.HostedSeat) error
}

// Library is the server's hosted bots: modules uploaded into the store, compiled once each
// by the runtime, and played on the seats the server gives them.
type Library struct {
	rt  *Runtime
	db  ModuleStore
	now func() time.Time
}

// NewLibrary keeps modules in db and runs them on rt.
func NewLibrary(rt *Runtime, db ModuleStore) *Library {
	return &Library{rt: rt, db: db, now: time.Now}
}

// Upload validates wasm by compiling it, then stores it as the next version of bot's
// module, to be played in games. An invalid module wraps ErrInvalid.
func (l *Library) Upload(ctx context.Context, bot string, games []string, wasm []byte) (*store.Module, error) {
	m, err := l.rt.Compile(ctx, wasm)
	if err != nil {
		return nil, err
	}
	rec := &store.Module{Bot: bot, Digest: m.Digest, Size: int64(len(wasm)), Games: games, Uploaded: l.now(), Wasm: wasm}
	if _, err := l.db.PutModule(ctx, rec); err != nil {
		return nil, fmt.Errorf("hosted: store %s's module: %w", bot, err)
	}
	rec.Wasm = nil
	return rec, nil
}

// PlaySeat plays st, seat number seat of its match, with version of bot's module (0: the
// newest) until the match ends, its random source seeded by the seat (BotSeed), and records the seat: its verdict if it broke a limit, the
// tail of its stderr, its decisions and their CPU. A seat whose module cannot start is
// recorded with the reason and left to the timeout policy.
func (l *Library) PlaySeat(ctx context.Context, bot string, version int, st Seat, seat int) (err error) {
	rec := &store.HostedSeat{MatchID: st.MatchID(), Seat: seat, Bot: bot}
	defer func() {
		rec.Ended = l.now()
		if recErr := l.db.RecordHostedSeat(context.WithoutCancel(ctx), rec); recErr != nil {
			err = errors.Join(err, fmt.Errorf("hosted: record seat %d of %s: %w", seat, rec.MatchID, recErr))
		}
	}()
	stored, err := l.db.ModuleVersion(ctx, bot, version)
	if err != nil {
		rec.Detail = "no module: " + err.Error()
		return fmt.Errorf("hosted: %s's module: %w", bot, err)
	}
	rec.Version = stored.Version
	m, err := l.rt.Compile(ctx, stored.Wasm)
	if err != nil {
		rec.Detail = err.Error()
		return err
	}
	seed := st.BotSeed()
	b, err := m.Start(ctx, seed)
	if err != nil && b == nil {
		rec.Detail = err.Error()
		return err
	}
	defer b.Close(context.WithoutCancel(ctx))
	err = Play(ctx, st, b, PlayConfig{Seed: seed, OnStep: func(s Step) {
		rec.Decisions++
		rec.CPU += s.CPU
	}})
	if v := b.Verdict(); v != nil {
		rec.Verdict, rec.Detail = string(v.Kind), v.String()
	}
	rec.Stderr = b.Stderr()
	return err
}
