package main

import (
	"github.com/spf13/pflag"

	"github.com/orrery/orrery/service/limits"
)

// addLimitFlags adds serve's flags for what one caller may hold, beside the older limits in
// newServeCmd.
func addLimitFlags(f *pflag.FlagSet, l *limits.Config) {
	f.IntVar(&l.LivePerCaller, "max-matches-per-caller", limits.DefaultLivePerCaller, "live matches one caller (address, or the HTTP client the web server vouches for) may have created")
	f.IntVar(&l.SpectatorsPerCaller, "max-spectators-per-caller", limits.DefaultSpectatorsPerCaller, "Watch streams one caller may have open on one match")
	f.IntVar(&l.TournamentMatches, "open-tournaments", limits.DefaultTournamentMatches, "without --admin-key: tournament matches one caller may schedule per hour (negative: CreateTournament only with the key)")
	f.IntVar(&l.RejectsPerSecond, "max-rejects-per-second", limits.DefaultRejectsPerSecond, "rejected answers a Play stream may send per second; past it the stream is closed (the seat is kept)")
	f.IntVar(&l.RejectBurst, "max-rejects-burst", limits.DefaultRejectBurst, "rejected answers a Play stream may send at once")
	f.IntVar(&l.StreamQueueBytes, "max-stream-queue-bytes", limits.DefaultStreamQueueBytes, "bytes of replies queued for a Play stream whose bot does not read; past it the stream is closed (the seat is kept)")
	f.IntVar(&l.MessageBytes, "max-message", 0, "largest gRPC message the server receives, in `BYTES` (0: 4 MiB, or --max-data-set and room for the rest of its request)")
	f.DurationVar(&l.Abandoned, "abandoned-expiry", limits.DefaultAbandoned, "a match whose connected seats all left and stayed away this long ends as aborted")
}
