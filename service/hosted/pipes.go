package hosted

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"sync"
	"time"
)

// The module's stdin, stdout and stderr. Their Read and Write run on the module's own
// goroutine, inside its calls to fd_read and fd_write; the host talks to them over channels.

// inbox is the module's stdin: one decision line at a time, handed over by the host only
// once the module waits for it, so that every line the module printed before is known to be
// in (a line no decision asked for is then told apart from an answer).
type inbox struct {
	lines   chan []byte   // the next decision line, newline included
	waiting chan struct{} // the module blocks on stdin: it has printed all it will
	stop    chan struct{} // closed when the instance ends: reads return EOF
	pending []byte
	given   time.Duration // the module thread's CPU clock when it took the last line (atomic use: only the module writes it, the host reads it after the answer's channel hand-off)
}

func newInbox() *inbox {
	return &inbox{lines: make(chan []byte, 1), waiting: make(chan struct{}, 1), stop: make(chan struct{})}
}

func (in *inbox) Read(p []byte) (int, error) {
	for len(in.pending) == 0 {
		select {
		case <-in.stop:
			return 0, io.EOF
		default:
		}
		select {
		case in.waiting <- struct{}{}:
		default: // already said
		}
		select {
		case line := <-in.lines:
			in.pending = line
			in.given = threadClock()
		case <-in.stop:
			return 0, io.EOF
		}
	}
	n := copy(p, in.pending)
	in.pending = in.pending[n:]
	return n, nil
}

// line is one line the module printed, without its newline, and its thread's CPU clock when
// the line was complete.
type line struct {
	text []byte
	cpu  time.Duration
	at   time.Time
}

// errOutput is what a write past a limit returns to the module; the host has its verdict.
var errOutput = errors.New("output limit")

// outbox is the module's stdout. A line longer than limit, or more lines than the host has
// room for before it asks again, is OUTPUT_LIMIT (over reports it, on the module goroutine).
type outbox struct {
	limit int
	lines chan line
	cur   []byte
	over  func(detail string)
}

// pendingLines is how many lines may wait for the host: the first line and an answer, and
// a few that no decision asked for, which the host reports as BAD_ANSWER.
const pendingLines = 4

func newOutbox(limit int, over func(string)) *outbox {
	return &outbox{limit: limit, lines: make(chan line, pendingLines), over: over}
}

func (o *outbox) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		part := p
		if i >= 0 {
			part = p[:i]
		}
		if len(o.cur)+len(part) > o.limit {
			o.over("printed a line longer than the limit of " + strconv.Itoa(o.limit) + " bytes")
			return 0, errOutput
		}
		o.cur = append(o.cur, part...)
		if i < 0 {
			break
		}
		p = p[i+1:]
		text := bytes.TrimSuffix(o.cur, []byte{'\r'})
		select {
		case o.lines <- line{text: bytes.Clone(text), cpu: threadClock(), at: time.Now()}:
		default:
			o.over("printed more than " + strconv.Itoa(pendingLines) + " lines that no decision asked for")
			return 0, errOutput
		}
		o.cur = o.cur[:0]
	}
	return n, nil
}

// tail keeps the newest bytes written to it, up to its size: a bot's stderr, for its owner.
type tail struct {
	mu    sync.Mutex // guards buf, cut
	size  int
	buf   []byte
	cut   bool // older bytes were dropped
	total int64
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.size; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.cut = true
	}
	return len(p), nil
}

// String is what is kept, starting at a line's start when older bytes were dropped.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if t.cut {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return string(b)
}
