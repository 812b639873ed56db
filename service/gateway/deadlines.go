package gateway

import (
	"net/http"
	"strings"
	"time"
)

// Limits bound what one HTTP client can make the web server hold; a zero field takes its
// default.
type Limits struct {
	MaxBody         int64         // the largest request body (--web-max-body)
	ReadHeader      time.Duration // to read a request's headers (--web-read-header-timeout)
	Read            time.Duration // to read a whole request, body included (--web-read-timeout)
	Write           time.Duration // to write a response; on a stream, each message (--web-write-timeout)
	Idle            time.Duration // a kept-alive connection waits this long for its next request (--web-idle-timeout)
	ConnsPerAddress int           // open connections from one host (--web-conns-per-address)
}

// Defaults. A body holds at most a CreateMatchRequest with an inline data set (1 MiB by
// default) escaped in a JSON string.
const (
	DefaultMaxBody         = 4 << 20
	DefaultReadHeader      = 10 * time.Second
	DefaultRead            = 30 * time.Second
	DefaultWrite           = 60 * time.Second
	DefaultIdle            = 120 * time.Second
	DefaultConnsPerAddress = 128
)

// WithDefaults fills the zero fields.
func (l Limits) WithDefaults() Limits {
	if l.MaxBody == 0 {
		l.MaxBody = DefaultMaxBody
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&l.ReadHeader, DefaultReadHeader)
	def(&l.Read, DefaultRead)
	def(&l.Write, DefaultWrite)
	def(&l.Idle, DefaultIdle)
	if l.ConnsPerAddress == 0 {
		l.ConnsPerAddress = DefaultConnsPerAddress
	}
	return l
}

// isStream reports whether r opens a stream that lives as long as a match: Watch,
// WatchTournament, or the Play bridge's WebSocket.
func isStream(r *http.Request) bool {
	return r.Method == http.MethodGet && (strings.HasSuffix(r.URL.Path, "/watch") || r.URL.Path == "/v1/play")
}

// streamDeadlines lifts the server's whole-request timeouts off a stream, which may rightly
// be quiet for minutes, and bounds each write instead: a client that stops reading is cut off
// after write, not held for the stream's life.
func streamDeadlines(write time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isStream(r) {
			next.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		rc.SetReadDeadline(time.Time{})
		rc.SetWriteDeadline(time.Time{})
		if r.URL.Path == "/v1/play" {
			next.ServeHTTP(w, r) // the bridge bounds each frame it writes
			return
		}
		next.ServeHTTP(&writeDeadline{ResponseWriter: w, rc: rc, d: write}, r)
	})
}

// writeDeadline gives each write of a stream its own deadline.
type writeDeadline struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *writeDeadline) Write(p []byte) (int, error) {
	w.rc.SetWriteDeadline(time.Now().Add(w.d))
	return w.ResponseWriter.Write(p)
}

func (w *writeDeadline) Flush() {
	w.rc.SetWriteDeadline(time.Now().Add(w.d))
	w.rc.Flush()
}

func (w *writeDeadline) Unwrap() http.ResponseWriter { return w.ResponseWriter }
