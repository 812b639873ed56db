package hosted

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/sys"

	"github.com/orrery/orrery/bots"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Bot is one instance of a module, playing one seat. Decide is called by one goroutine at a
// time (the seat's); Verdict, Stderr and Close from any.
type Bot struct {
	mod     api.Module
	limits  Limits
	in      *inbox
	out     *outbox
	stderr  *tail
	mem     *allocator
	start   time.Time // the module's clock reads zero here
	cancel  context.CancelFunc
	done    chan struct{} // _start has returned; err is set
	err     error
	random  *source
	receive *orreryv1.Receive
	enc     Encoding
	buf     []byte
	// reading says the module waits on stdin for its next decision: it said so (inbox's
	// waiting), and has not been handed a line since. Only Start and Decide use it.
	reading bool

	mu      sync.Mutex // guards verdict, current, closed
	verdict *Verdict
	current *orreryv1.Decision // the decision being decided, for a verdict's place
	closed  bool
}

// Move is a bot's answer to one decision and what it cost.
type Move struct {
	Answer *orreryv1.Answer
	Debug  string        // the bot's note, kept with the step
	CPU    time.Duration // the module thread's CPU from reading the decision to answering it
	Wall   time.Duration // from handing over the decision to the answer
}

// Start instantiates m for one seat, its random source seeded with seed (the match seed and
// the seat: match.Seat's BotSeed), and runs it until it waits for its first decision. A bot that breaks
// a limit meanwhile is returned with its verdict set, so that its seat is told why.
func (m *Module) Start(ctx context.Context, seed uint64) (*Bot, error) {
	l := m.r.limits
	b := &Bot{limits: l, random: newSource(seed), in: newInbox(), stderr: &tail{size: l.StderrBytes}, mem: &allocator{cap: uint64(l.MemoryPages) * pageBytes}, done: make(chan struct{})}
	b.out = newOutbox(l.LineBytes, func(detail string) { b.fail(OutputLimit, detail) })
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	b.cancel = cancel
	b.start = time.Now()
	cfg := wazero.NewModuleConfig().
		WithName("").         // anonymous: any number of seats may play one module
		WithStartFunctions(). // _start runs on the bot's own goroutine, below
		WithArgs("bot").
		WithStdin(b.in).WithStdout(b.out).WithStderr(b.stderr).
		WithRandSource(b.random).
		WithNanotime(b.nanotime, sys.ClockResolution(time.Microsecond)).
		WithWalltime(b.walltime, sys.ClockResolution(time.Microsecond)).
		WithNanosleep(b.nanosleep).
		WithOsyield(runtime.Gosched)
	mod, err := m.r.rt.InstantiateModule(experimental.WithMemoryAllocator(runCtx, b.mem), m.compiled, cfg)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("hosted: instantiate module %.12s: %w", m.Digest, err)
	}
	b.mod = mod
	go b.run(runCtx)
	if err := b.awaitFirstRead(); err != nil {
		return b, err
	}
	return b, nil
}

// source is a module's random source. Until its first decision it is the seat's stream;
// from each decision on, until the next, a stream keyed by the seat's seed and what the
// decision offers (decisionKey), not by when it came. A bot that draws anew at each
// decision therefore draws the same numbers for the same choice however its instance got
// there: whichever seat answered first in a phase all seats play at once, and also when
// its seat was started afresh in the middle of the match, as a server restarted after a
// kill does. The tournaments' built-in bots are reseeded the same way (service/tournament).
// Only the module's goroutine reads it, and it is rekeyed only while the module waits on
// stdin.
type source struct {
	seed uint64
	c    *rand.ChaCha8
}

func newSource(seed uint64) *source {
	return &source{seed: seed, c: rand.NewChaCha8(streamKey(seed, 0))}
}

func (s *source) Read(p []byte) (int, error) { return s.c.Read(p) }

// rekey starts the stream of a decision.
func (s *source) rekey(d *orreryv1.Decision) { s.c.Seed(streamKey(s.seed, decisionKey(d)|1)) }

// decisionKey is a hash of what a decision offers: its legal actions, by count and
// notation. The seat is in the seed already.
func decisionKey(d *orreryv1.Decision) uint64 {
	h := fnv.New64a()
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(bots.Count(d)))
	h.Write(n[:])
	for _, s := range d.GetLegalNotation() {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// streamKey is the key of stream n of a seat's seed: one way, so that no stream tells the
// seed or another stream.
func streamKey(seed, n uint64) [32]byte {
	var in [24]byte
	copy(in[:8], "hosted\x00\x01")
	binary.LittleEndian.PutUint64(in[8:], seed)
	binary.LittleEndian.PutUint64(in[16:], n)
	return sha256.Sum256(in[:])
}

// The module's clocks: both read the time since its seat started, the wall clock as a date
// from the Unix epoch. Neither tells the time of day, and neither ever goes back.
func (b *Bot) nanotime() int64 { return int64(time.Since(b.start)) }

func (b *Bot) walltime() (int64, int32) {
	d := time.Since(b.start)
	return int64(d / time.Second), int32(d % time.Second)
}

// nanosleep sleeps, but no longer than the instance lives: a sleep is a host call, which the
// context's interrupt does not reach.
func (b *Bot) nanosleep(ns int64) {
	t := time.NewTimer(time.Duration(ns))
	defer t.Stop()
	select {
	case <-t.C:
	case <-b.in.stop:
	}
}

// run runs the module's _start on a goroutine locked to its thread, so that the thread's CPU
// clock is the module's (cpu_linux.go).
func (b *Bot) run(ctx context.Context) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_, err := b.mod.ExportedFunction("_start").Call(ctx)
	b.err = err
	close(b.done)
}

// awaitFirstRead waits until the module reads stdin for its first decision, taking the
// receive line it may print first.
func (b *Bot) awaitFirstRead() error {
	timer := time.NewTimer(b.limits.StartTime)
	defer timer.Stop()
	for {
		select {
		case <-b.in.waiting:
			b.reading = true
			select {
			case ln := <-b.out.lines: // printed just before it read
				if err := b.takeFirstLine(ln); err != nil {
					return err
				}
			default:
			}
			if b.receive == nil {
				b.receive = DefaultReceive()
			}
			return nil
		case ln := <-b.out.lines:
			if err := b.takeFirstLine(ln); err != nil {
				return err
			}
		case <-b.done:
			return b.died()
		case <-timer.C:
			return b.fail(TimeLimit, fmt.Sprintf("did not read its first decision within %v of starting", b.limits.StartTime))
		}
	}
}

func (b *Bot) takeFirstLine(ln line) error {
	if b.receive != nil {
		return b.fail(BadAnswer, "printed a second line before any decision: "+quote(ln.text))
	}
	r, enc, err := firstLine(ln.text)
	if err != nil {
		return b.fail(BadAnswer, err.Error())
	}
	b.receive, b.enc = r, enc
	return nil
}

// Receive is what the bot asked its decisions to carry (DefaultReceive if it did not say).
func (b *Bot) Receive() *orreryv1.Receive { return b.receive }

// Encoding is how the bot asked its decisions to be written (EncodingJSON if it did not say).
func (b *Bot) Encoding() Encoding {
	if b.enc == "" {
		return EncodingJSON
	}
	return b.enc
}

// ErrGone is returned by Decide after a verdict, or once the bot is closed.
var ErrGone = errors.New("hosted bot has stopped")

// Decide hands d to the bot and waits for its answer for at most limit. A broken limit ends
// the instance and is returned as its *Verdict.
func (b *Bot) Decide(d *orreryv1.Decision, limit time.Duration) (Move, error) {
	b.mu.Lock()
	if b.verdict != nil || b.closed {
		b.mu.Unlock()
		return Move{}, ErrGone
	}
	b.current = d
	b.mu.Unlock()
	defer b.setCurrent(nil)
	if limit <= 0 {
		limit = time.Nanosecond // already late: the bot gets no time
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	handed := time.Now()
	late := func() error {
		return b.fail(TimeLimit, fmt.Sprintf("no answer within %v", limit.Round(time.Microsecond)))
	}
	// Hand the decision over only once the module waits for it: every line it printed
	// before is then in, and one that no decision asked for is told apart from an answer.
	if !b.reading {
		select {
		case <-b.in.waiting:
		case <-b.done:
			return Move{}, b.died()
		case <-timer.C:
			return Move{}, late()
		}
	}
	b.reading = false
	select {
	case ln := <-b.out.lines:
		return Move{}, b.fail(BadAnswer, "printed a line no decision asked for: "+quote(ln.text))
	default:
	}
	var err error
	if b.buf, err = decisionLine(b.buf, d, time.Since(b.start)+limit, b.enc, b.receive.GetOmitLegalNotation()); err != nil {
		return Move{}, fmt.Errorf("hosted: encode decision %s: %w", d.GetDecisionId(), err)
	}
	b.random.rekey(d)
	b.in.lines <- b.buf
	select {
	case ln := <-b.out.lines:
		a, note, err := parseAnswer(ln.text, d)
		if err != nil {
			return Move{}, b.fail(BadAnswer, err.Error())
		}
		return Move{Answer: a, Debug: note, CPU: ln.cpu - b.in.given, Wall: ln.at.Sub(handed)}, nil
	case <-b.done:
		return Move{}, b.died()
	case <-timer.C:
		return Move{}, late()
	}
}

func (b *Bot) setCurrent(d *orreryv1.Decision) {
	b.mu.Lock()
	b.current = d
	b.mu.Unlock()
}

// Reject tells the bot its answer to the current decision was refused by the match: a
// BAD_ANSWER, as a bot that knows the rules should not give one.
func (b *Bot) Reject(decisionID string, ply int64, reason string) *Verdict {
	b.setCurrent(&orreryv1.Decision{DecisionId: decisionID, Ply: ply})
	defer b.setCurrent(nil)
	return b.fail(BadAnswer, "the match refused the answer: "+reason)
}

// fail records the verdict (the first one stands) and ends the instance. It may run on the
// module's goroutine (an output limit) or the host's.
func (b *Bot) fail(kind Kind, detail string) *Verdict {
	b.mu.Lock()
	if b.verdict != nil {
		v := b.verdict
		b.mu.Unlock()
		return v
	}
	v := &Verdict{Kind: kind, Detail: detail}
	if b.current != nil {
		v.DecisionID, v.Ply = b.current.GetDecisionId(), b.current.GetPly()
	}
	b.verdict = v
	b.mu.Unlock()
	fmt.Fprintf(b.stderr, "\norrery: %s\n", v.String())
	b.stop()
	return v
}

// died classifies the end of a module that stopped on its own.
func (b *Bot) died() *Verdict {
	if refused := b.mem.mem.refusedBytes(); refused > 0 {
		return b.fail(MemoryLimit, fmt.Sprintf("asked for %d MiB of memory, over the cap of %d MiB, and died (%s)", refused>>20, b.mem.cap>>20, exitDetail(b.err)))
	}
	return b.fail(RuntimeError, exitDetail(b.err))
}

// exitDetail says how _start ended, in a line or a few.
func exitDetail(err error) string {
	var exit *sys.ExitError
	switch {
	case err == nil:
		return "returned from _start while the match went on"
	case errors.As(err, &exit):
		return fmt.Sprintf("exited with code %d while the match went on", exit.ExitCode())
	}
	msg := err.Error()
	if lines := strings.SplitN(msg, "\n", 6); len(lines) > 5 {
		msg = strings.Join(lines[:5], "\n") + "\n..."
	}
	return "trapped: " + msg
}

// stop ends the instance: its stdin reads EOF, and its code is interrupted.
func (b *Bot) stop() {
	b.mu.Lock()
	already := b.closed
	b.closed = true
	b.mu.Unlock()
	if !already {
		close(b.in.stop)
		b.cancel()
	}
}

// Verdict is the limit the bot broke, or nil.
func (b *Bot) Verdict() *Verdict {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.verdict
}

// Stderr is the newest of what the bot wrote to stderr, with the host's verdict line.
func (b *Bot) Stderr() string { return b.stderr.String() }

// MemoryBytes is the size of the bot's linear memory now.
func (b *Bot) MemoryBytes() uint64 {
	if b.mem.mem == nil {
		return 0
	}
	return b.mem.mem.size.Load()
}

// Close ends the instance (its seat is over) and waits for it to stop.
func (b *Bot) Close(ctx context.Context) error {
	b.stop()
	select {
	case <-b.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return b.mod.Close(ctx)
}
