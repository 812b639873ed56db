// Package retention removes finished matches (and their logs) older than an age the
// operator chose; running matches are never removed. Off unless configured.
package retention

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
)

// Deleter is what retention needs of the store (store.DB).
type Deleter interface {
	DeleteFinishedBefore(ctx context.Context, t time.Time) (int64, error)
}

// Config says what to keep and how often to look.
type Config struct {
	Keep   time.Duration // finished matches older than this go; 0: keep everything
	Every  time.Duration // 0: hourly
	Now    func() time.Time
	Logger *slog.Logger
}

// Run removes old matches now and then every cfg.Every until ctx ends.
func Run(ctx context.Context, db Deleter, cfg Config) {
	if cfg.Keep <= 0 {
		return
	}
	if cfg.Every <= 0 {
		cfg.Every = time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	t := time.NewTicker(cfg.Every)
	defer t.Stop()
	for {
		n, err := db.DeleteFinishedBefore(ctx, cfg.Now().Add(-cfg.Keep))
		if err != nil && ctx.Err() == nil {
			cfg.Logger.Error("retention: removing old matches", "err", err)
		} else if n > 0 {
			cfg.Logger.Info("retention: removed finished matches", "count", n, "older_than", cfg.Keep.String())
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// ParseAge reads an age such as "90d", "36h" or "0" (off): days, or a Go duration.
func ParseAge(s string) (time.Duration, error) {
	if s == "" || s == "0" {
		return 0, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("age %q: want days such as 90d, or a duration such as 36h", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("age %q: want days such as 90d, or a duration such as 36h", s)
	}
	return d, nil
}
