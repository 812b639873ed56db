// Package limits bounds what one client can make an open server hold: live matches, matches
// created per caller per minute, spectators per match, and the size of the text a client
// sends (seat names, option values). Every refusal is a ResourceExhausted or InvalidArgument
// status that names the limit and the serve flag that sets it.
package limits

import (
	"fmt"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/engine"
)

// Config is the limits; a zero field takes its default.
type Config struct {
	LiveMatches         int           // matches running at once on the server (--max-matches)
	CreatesPerMinute    int           // matches one caller may create per minute (--max-creates-per-minute)
	SpectatorsPerMatch  int           // Watch streams open on one match (--max-spectators)
	SeatNameBytes       int           // the longest seat name (--max-seat-name)
	OptionValueBytes    int           // the longest option value, data sets excepted (--max-option-value)
	DataSetBytes        int           // the longest data set sent inline (--max-data-set)
	Unjoined            time.Duration // a match no seat joined ends as aborted after this (--unjoined-expiry)
	EchoBytes           int           // client text quoted in an error or a log line
	StreamQueue         int           // replies queued for one Play stream whose bot does not read (--max-stream-queue)
	StreamQueueBytes    int           // bytes of those replies (--max-stream-queue-bytes)
	LivePerCaller       int           // live matches one caller has created (--max-matches-per-caller)
	SpectatorsPerCaller int           // Watch streams one caller has open on one match (--max-spectators-per-caller)
	TournamentMatches   int           // tournament matches one caller may schedule per hour without the admin key (--open-tournaments); negative: none
	RejectsPerSecond    int           // rejected answers a Play stream may send per second (--max-rejects-per-second)
	RejectBurst         int           // and at once
	Abandoned           time.Duration // a match whose seats all left and stayed away this long ends as aborted (--abandoned-expiry)
	MessageBytes        int           // the largest gRPC message the server receives (--max-message)
}

// Defaults.
const (
	DefaultLiveMatches        = 1000
	DefaultCreatesPerMinute   = 60
	DefaultSpectatorsPerMatch = 64
	DefaultSeatNameBytes      = 64
	DefaultOptionValueBytes   = 256
	DefaultDataSetBytes       = 1 << 20
	DefaultUnjoined           = 10 * time.Minute
	DefaultEchoBytes          = 64
	// DefaultStreamQueue is far more replies than a bot that reads ever has waiting (one per
	// answer it sent and has not yet read the reply to).
	DefaultStreamQueue = 128
	// DefaultStreamQueueBytes is a few hundred of the largest decisions a game sends.
	DefaultStreamQueueBytes    = 8 << 20
	DefaultLivePerCaller       = 64
	DefaultSpectatorsPerCaller = 8
	DefaultTournamentMatches   = 600
	// DefaultRejectsPerSecond is far more than a bot that reads its decisions is ever
	// refused; 200 garbage seats at 10k messages a second slowed another match to 0.10x.
	DefaultRejectsPerSecond = 5
	DefaultRejectBurst      = 20
	DefaultAbandoned        = 10 * time.Minute
	// DefaultMessageBytes is gRPC's own default, set explicitly; a larger --max-data-set
	// raises it to the data set and room for the rest of its CreateMatchRequest.
	DefaultMessageBytes = 4 << 20
	messageRoom         = 64 << 10
)

// WithDefaults fills the zero fields.
func (c Config) WithDefaults() Config {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.LiveMatches, DefaultLiveMatches)
	def(&c.CreatesPerMinute, DefaultCreatesPerMinute)
	def(&c.SpectatorsPerMatch, DefaultSpectatorsPerMatch)
	def(&c.SeatNameBytes, DefaultSeatNameBytes)
	def(&c.OptionValueBytes, DefaultOptionValueBytes)
	def(&c.DataSetBytes, DefaultDataSetBytes)
	def(&c.EchoBytes, DefaultEchoBytes)
	def(&c.StreamQueue, DefaultStreamQueue)
	def(&c.StreamQueueBytes, DefaultStreamQueueBytes)
	def(&c.LivePerCaller, DefaultLivePerCaller)
	def(&c.SpectatorsPerCaller, DefaultSpectatorsPerCaller)
	def(&c.TournamentMatches, DefaultTournamentMatches)
	def(&c.RejectsPerSecond, DefaultRejectsPerSecond)
	def(&c.RejectBurst, DefaultRejectBurst)
	if c.Unjoined == 0 {
		c.Unjoined = DefaultUnjoined
	}
	if c.Abandoned == 0 {
		c.Abandoned = DefaultAbandoned
	}
	if c.MessageBytes == 0 {
		c.MessageBytes = max(DefaultMessageBytes, c.DataSetBytes+messageRoom)
	}
	return c
}

// Limits enforces a Config. It is safe for concurrent use.
type Limits struct {
	cfg Config

	mu         sync.Mutex // guards the maps below
	creates    map[string]*window
	scheduled  map[string]*window // tournament matches by caller, per hour
	spectators map[string]int     // by match
	watching   map[string]int     // by match and caller
	owned      map[string]int     // live matches by creator
	ownerOf    map[string]string  // creator by live match
}

// window counts one caller's creations in the current minute.
type window struct {
	start time.Time
	n     int
}

// New makes the limits of cfg (defaults filled).
func New(cfg Config) *Limits {
	return &Limits{cfg: cfg.WithDefaults(), creates: make(map[string]*window), scheduled: make(map[string]*window),
		spectators: make(map[string]int), watching: make(map[string]int), owned: make(map[string]int), ownerOf: make(map[string]string)}
}

// Config is the limits in force.
func (l *Limits) Config() Config { return l.cfg }

// Clip shortens client text for an error or a log line.
func (l *Limits) Clip(s string) string { return engine.Clip(s, l.cfg.EchoBytes) }

// Live refuses a new match when running matches are already at the limit.
func (l *Limits) Live(running int) error {
	if running >= l.cfg.LiveMatches {
		return status.Errorf(codes.ResourceExhausted, "live matches: the server runs its limit of %d (serve --max-matches); try again later", l.cfg.LiveMatches)
	}
	return nil
}

// Create counts a match created by caller at now, refusing it past the per-minute limit.
func (l *Limits) Create(caller string, now time.Time) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.creates[caller]
	if w == nil || now.Sub(w.start) >= time.Minute {
		if len(l.creates) > 4096 { // forget callers whose minute has passed
			for k, v := range l.creates {
				if now.Sub(v.start) >= time.Minute {
					delete(l.creates, k)
				}
			}
		}
		w = &window{start: now}
		l.creates[caller] = w
	}
	if w.n >= l.cfg.CreatesPerMinute {
		return status.Errorf(codes.ResourceExhausted, "matches created per caller per minute: limit %d reached (serve --max-creates-per-minute); try again in %v",
			l.cfg.CreatesPerMinute, (time.Minute - now.Sub(w.start)).Round(time.Second))
	}
	w.n++
	return nil
}

// SeatNames checks seat names: printable, without control or format characters, and short.
func (l *Limits) SeatNames(names []string) error {
	for i, n := range names {
		if len(n) > l.cfg.SeatNameBytes {
			return status.Errorf(codes.InvalidArgument, "seat_names[%d]: %d bytes, the limit is %d (serve --max-seat-name)", i, len(n), l.cfg.SeatNameBytes)
		}
		if !utf8.ValidString(n) {
			return status.Errorf(codes.InvalidArgument, "seat_names[%d] is not UTF-8", i)
		}
		for _, r := range n {
			if !unicode.IsPrint(r) {
				return status.Errorf(codes.InvalidArgument, "seat_names[%d] %q: only printable characters (no control, format or line-breaking ones)", i, l.Clip(n))
			}
		}
	}
	return nil
}

// Options checks option names and values are within bounds: a data set (engine.Option.Data)
// up to DataSetBytes, any other value up to OptionValueBytes.
func (l *Limits) Options(info engine.Info, opts map[string]string) error {
	if len(opts) > len(info.Options)+1 { // +1: the server's own "clock" option
		return status.Errorf(codes.InvalidArgument, "%d options; %s has %d", len(opts), info.Name, len(info.Options))
	}
	for k, v := range opts {
		limit := l.cfg.OptionValueBytes
		for _, o := range info.Options {
			if o.Name == k && o.Data {
				limit = l.cfg.DataSetBytes
			}
		}
		if len(v) > limit {
			return status.Errorf(codes.InvalidArgument, "option %s: value of %d bytes, the limit is %d (serve --max-option-value, --max-data-set)", l.Clip(k), len(v), limit)
		}
	}
	return nil
}

// StreamQueue refuses one more reply queued for a stream that already has its limit waiting:
// the bot sends answers and does not read the replies. The stream is closed; the seat is kept.
func (l *Limits) StreamQueue(queued int) error {
	if queued >= l.cfg.StreamQueue {
		return status.Errorf(codes.ResourceExhausted, "queued outgoing messages per stream: %d replies wait for a bot that does not read (serve --max-stream-queue); the seat is kept: rejoin and read the stream", l.cfg.StreamQueue)
	}
	return nil
}

// Unjoined is how long a match may wait for its first seat.
func (l *Limits) Unjoined() time.Duration { return l.cfg.Unjoined }

// Abandoned is how long a match may have no seat connected, once every seat has left.
func (l *Limits) Abandoned() time.Duration { return l.cfg.Abandoned }

// String describes the limits, for the server's start-up log.
func (l *Limits) String() string {
	c := l.cfg
	return fmt.Sprintf("matches %d (%d/caller), creates/min/caller %d, tournament matches/h/caller %d, spectators/match %d (%d/caller), seat name %dB, option %dB, data set %dB, unjoined %v, abandoned %v, stream queue %d (%dB), rejects/s/stream %d",
		c.LiveMatches, c.LivePerCaller, c.CreatesPerMinute, c.TournamentMatches, c.SpectatorsPerMatch, c.SpectatorsPerCaller, c.SeatNameBytes, c.OptionValueBytes,
		c.DataSetBytes, c.Unjoined, c.Abandoned, c.StreamQueue, c.StreamQueueBytes, c.RejectsPerSecond)
}
