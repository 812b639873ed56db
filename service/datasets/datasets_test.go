package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/orrery/orrery/engine"
)

var info = engine.Info{Name: "g", Options: []engine.Option{{Name: "data", Data: true}, {Name: "turn_cap"}}}

const secret = `{"secret":"do not echo me"}`

// dataDir makes a data directory with a good set, a file outside it, a symlink out, a FIFO,
// a directory named like a set and an oversized set.
func dataDir(t *testing.T) string {
	t.Helper()
	top := t.TempDir()
	dir := filepath.Join(top, "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, body string) {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "small-v1.json"), `{"layout":[1]}`)
	write(filepath.Join(top, "outside.json"), secret)
	write(filepath.Join(dir, "big.json"), "["+strings.Repeat(" ", 2048)+"]")
	if err := os.Symlink(filepath.Join(top, "outside.json"), filepath.Join(dir, "escape.json")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "adir.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestResolve_NameBecomesStoredBytes(t *testing.T) {
	r := Resolver{Dir: dataDir(t), MaxBytes: 1024}
	opts := map[string]string{"data": "small-v1", "turn_cap": "9"}
	got, err := r.Resolve(info, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got["data"] != `{"layout":[1]}` || got["turn_cap"] != "9" {
		t.Errorf("resolved %v", got)
	}
	if opts["data"] != "small-v1" {
		t.Error("Resolve changed its argument")
	}
}

func TestResolve_InlineAndOtherOptionsPassThrough(t *testing.T) {
	r := Resolver{} // no directory: inline only
	for _, v := range []string{`{"a":1}`, "  [1]", ""} {
		opts := map[string]string{"data": v, "turn_cap": "../../etc/passwd"}
		got, err := r.Resolve(info, opts)
		if err != nil || got["data"] != v || got["turn_cap"] != "../../etc/passwd" {
			t.Errorf("%q: got %v, %v", v, got, err)
		}
	}
}

// No client ever names a server file: paths, hidden files, FIFOs, devices, directories,
// symlinks out of the directory and oversized files all get the same answer, which never
// holds a file's content.
func TestResolve_NoClientNamesAServerFile(t *testing.T) {
	r := Resolver{Dir: dataDir(t), MaxBytes: 1024}
	tests := []struct {
		name string
		want error
	}{
		{"../outside", ErrBadName},
		{"/etc/passwd", ErrBadName},
		{"sub/small-v1", ErrBadName},
		{".hidden", ErrBadName},
		{"..", ErrBadName},
		{"a\x00b", ErrBadName},
		{strings.Repeat("x", 10000), ErrBadName},
		{"missing", ErrUnknown},
		{"escape", ErrUnknown},
		{"fifo", ErrUnknown},
		{"adir", ErrUnknown},
		{"zero", ErrUnknown},
		{"big", ErrUnknown},
	}
	for _, tt := range tests {
		t.Run(engine.Clip(tt.name, 16), func(t *testing.T) {
			_, err := r.Resolve(info, map[string]string{"data": tt.name})
			if !errors.Is(err, tt.want) || !errors.Is(err, engine.ErrBadOption) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			msg := err.Error()
			if strings.Contains(msg, "secret") || strings.Contains(msg, "/tmp") || strings.Contains(msg, r.Dir) || len(msg) > 400 {
				t.Errorf("error reveals too much: %q", msg)
			}
			if tt.want == ErrUnknown && !strings.Contains(msg, "no data set "+tt.name+" in the server's data directory") {
				t.Errorf("error %q is not the one answer for an unknown set", msg)
			}
		})
	}
}

func TestResolve_NoDirectoryRefusesNames(t *testing.T) {
	_, err := Resolver{}.Resolve(info, map[string]string{"data": "small-v1"})
	if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "inline") {
		t.Errorf("got %v", err)
	}
}
