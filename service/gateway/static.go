package gateway

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
)

// asset is one file of the app, kept plain and gzipped.
type asset struct {
	plain, gz []byte
	etag      string
	mimeType  string
	cache     string
}

// staticFiles serves the embedded app. Each file is gzipped once at start and carries an
// ETag, so a browser asks again with If-None-Match and gets a 304 rather than the file; the
// app's own files are revalidated on every load (they change with the binary, and a module
// URL names no version), the vendored library is kept a day.
func staticFiles(fsys fs.FS) (http.Handler, error) {
	files := map[string]*asset{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		a := &asset{plain: b, etag: etagOf(b), mimeType: mime.TypeByExtension(path.Ext(p)), cache: "no-cache"}
		if strings.HasPrefix(p, "vendor/") {
			a.cache = "public, max-age=86400"
		}
		if a.mimeType == "" {
			a.mimeType = http.DetectContentType(b)
		}
		if strings.HasPrefix(a.mimeType, "text/") && !strings.Contains(a.mimeType, "charset") {
			a.mimeType += "; charset=utf-8"
		}
		if a.gz, err = gzipped(b); err != nil {
			return err
		}
		files["/"+p] = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	files["/"] = files["/index.html"]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		a := files[r.URL.Path]
		if a == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", a.mimeType)
		w.Header().Set("Cache-Control", a.cache)
		serveBytes(w, r, a.plain, a.gz, a.etag)
	}), nil
}

// serveBytes answers with body, gzipped when the client takes gzip, or 304 when the client
// holds it already.
func serveBytes(w http.ResponseWriter, r *http.Request, plain, gz []byte, etag string) {
	h := w.Header()
	h.Set("ETag", etag)
	h.Add("Vary", "Accept-Encoding")
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := plain
	if gz != nil && acceptsGzip(r) {
		body = gz
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

func etagOf(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(name) == "gzip" && strings.TrimSpace(q) != "q=0" {
			return true
		}
	}
	return false
}

var gzipPool = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed); return w }}

// gzipped is b compressed at the best ratio (static files are compressed once).
func gzipped(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// minGzip is the smallest JSON answer worth compressing.
const minGzip = 1 << 10

// replays keeps the last few replays answered: GetReplay answers only for a finished match
// whose seed is out, and such a replay never changes, so it is made (the log re-run, the
// JSON written and gzipped) once rather than on every visit.
type replays struct {
	mu    sync.Mutex // guards byKey and order
	byKey map[string]*asset
	order []string
}

const replaysKept = 8

func (c *replays) get(key string) *asset {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byKey[key]
}

func (c *replays) put(key string, a *asset) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok {
		return
	}
	if len(c.order) == replaysKept {
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
	c.byKey[key] = a
	c.order = append(c.order, key)
}

// compressJSON gzips the API's JSON answers (a replay of thousands of plies is megabytes of
// repetitive JSON) and gives them an ETag, so that an answer asked for again is a 304.
// Replays, which never change, are kept made and may be cached a day. Streams (Watch, the
// Play bridge) pass through: they are answered as they happen.
func compressJSON(next http.Handler) http.Handler {
	kept := &replays{byKey: map[string]*asset{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || strings.HasSuffix(r.URL.Path, "/watch") || r.URL.Path == "/v1/play" {
			next.ServeHTTP(w, r)
			return
		}
		replay := strings.HasPrefix(r.URL.Path, "/v1/matches/") && strings.HasSuffix(r.URL.Path, "/replay")
		key := r.URL.RequestURI()
		if a := kept.get(key); replay && a != nil {
			w.Header().Set("Content-Type", a.mimeType)
			w.Header().Set("Cache-Control", a.cache)
			serveBytes(w, r, a.plain, a.gz, a.etag)
			return
		}
		rec := &bufferedWriter{header: http.Header{}, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		if rec.status != http.StatusOK {
			w.WriteHeader(rec.status)
			w.Write(rec.body.Bytes())
			return
		}
		plain := rec.body.Bytes()
		var gz []byte
		if len(plain) >= minGzip && (acceptsGzip(r) || replay) {
			var buf bytes.Buffer
			zw := gzipPool.Get().(*gzip.Writer)
			zw.Reset(&buf)
			zw.Write(plain)
			zw.Close()
			gzipPool.Put(zw)
			gz = buf.Bytes()
		}
		if replay {
			a := &asset{plain: plain, gz: gz, etag: etagOf(plain), mimeType: rec.header.Get("Content-Type"), cache: "public, max-age=86400"}
			kept.put(key, a)
			w.Header().Set("Cache-Control", a.cache)
			serveBytes(w, r, plain, gz, a.etag)
			return
		}
		// A running match's answers change: the browser asks each time, and a 304 saves it
		// the body when nothing did.
		w.Header().Set("Cache-Control", "no-cache")
		serveBytes(w, r, plain, gz, etagOf(plain))
	})
}

// bufferedWriter holds an answer until it is whole.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header         { return b.header }
func (b *bufferedWriter) WriteHeader(status int)      { b.status = status }
func (b *bufferedWriter) Write(p []byte) (int, error) { return b.body.Write(p) }
