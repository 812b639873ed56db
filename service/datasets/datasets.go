// Package datasets resolves the data-set options of a match (engine.Option.Data). A client
// sends a data set inline as JSON, or names one the server's operator put in a data
// directory; a name is resolved here into the inline bytes the match stores, so no client
// ever names a server file and no replay or restart reads one.
package datasets

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/orrery/orrery/engine"
)

// DefaultMaxBytes bounds one data set file.
const DefaultMaxBytes = 1 << 20

// ErrUnknown wraps every failure to resolve a name, whatever its cause, so that a client
// learns nothing about the directory beyond "no such data set".
var ErrUnknown = errors.New("no data set")

// ErrBadName is a name that could be a path: only [A-Za-z0-9_.-]+ without a leading dot.
var ErrBadName = errors.New("bad data set name")

// Resolver reads named data sets from Dir (empty: names are refused, inline JSON only).
type Resolver struct {
	Dir      string
	MaxBytes int64 // 0: DefaultMaxBytes
}

// Inline reports whether v is a data set given inline: JSON text, an object or an array.
func Inline(v string) bool {
	v = strings.TrimLeft(v, " \t\r\n")
	return v == "" || v[0] == '{' || v[0] == '['
}

// ValidName reports whether name can only be a file name inside the data directory.
func ValidName(name string) bool {
	if name == "" || name[0] == '.' || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// Resolve returns opts with every data-set option of info that names a data set replaced by
// that set's bytes. opts itself is not changed. Errors wrap engine.ErrBadOption and either
// ErrBadName or ErrUnknown; they quote the name (clipped) and never a file's content.
func (r Resolver) Resolve(info engine.Info, opts map[string]string) (map[string]string, error) {
	var out map[string]string
	for _, o := range info.Options {
		v, ok := opts[o.Name]
		if !o.Data || !ok || Inline(v) {
			continue
		}
		b, err := r.read(v)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", engine.ErrBadOption, o.Name, err)
		}
		if out == nil {
			out = make(map[string]string, len(opts))
			for k, v := range opts {
				out[k] = v
			}
		}
		out[o.Name] = string(b)
	}
	if out == nil {
		return opts, nil
	}
	return out, nil
}

// read reads DIR/<name>.json: a regular file, at most MaxBytes, opened without following a
// path out of the directory and without blocking on a FIFO.
func (r Resolver) read(name string) ([]byte, error) {
	if !ValidName(name) {
		return nil, fmt.Errorf("%w %q: a data set is inline JSON or a name of letters, digits, '_', '.' and '-' not starting with '.'", ErrBadName, engine.Clip(name, 64))
	}
	unknown := fmt.Errorf("%w %s in the server's data directory", ErrUnknown, name)
	if r.Dir == "" {
		return nil, fmt.Errorf("%w %s: this server has no data directory; send the data set inline as JSON", ErrUnknown, name)
	}
	root, err := os.OpenRoot(r.Dir)
	if err != nil {
		return nil, unknown
	}
	defer root.Close()
	f, err := root.OpenFile(name+".json", os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, unknown
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, unknown
	}
	limit := r.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if fi.Size() > limit { // the same answer as a missing file: a client learns nothing more
		return nil, unknown
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil || int64(len(b)) > limit {
		return nil, unknown
	}
	return b, nil
}
