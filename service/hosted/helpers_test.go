package hosted

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tetratelabs/wazero"
	"go.uber.org/goleak"
)

// The modules the tests play are built from source at test time, once per package run, and
// compiled by one runtime whose machine code is cached on disk across runs (a Go module of
// the kit is tens of megabytes: its first compilation takes seconds).
var (
	buildDir string
	builds   sync.Map // source -> *build
	shared   struct {
		once sync.Once
		rt   *Runtime
		err  error
	}
)

type build struct {
	once sync.Once
	path string
	err  error
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hosted-test-")
	if err != nil {
		panic(err)
	}
	buildDir = dir
	code := m.Run()
	if shared.rt != nil {
		shared.rt.Close(context.Background())
	}
	os.RemoveAll(dir)
	if code == 0 {
		if err := goleak.Find(); err != nil {
			os.Stderr.WriteString("goleak: " + err.Error() + "\n")
			code = 1
		}
	}
	os.Exit(code)
}

// repoRoot is the module root, from this package's directory.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// goWasm builds the Go package pkg (relative to the module root) with GOOS=wasip1 and
// returns the module's bytes.
func goWasm(t testing.TB, pkg string) []byte {
	t.Helper()
	v, _ := builds.LoadOrStore(pkg, new(build))
	bd := v.(*build)
	bd.once.Do(func() {
		bd.path = filepath.Join(buildDir, filepath.Base(pkg)+".wasm")
		cmd := exec.Command("go", "build", "-o", bd.path, "./"+pkg)
		cmd.Dir = repoRoot(t)
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			bd.err = &buildError{pkg, string(out), err}
		}
	})
	if bd.err != nil {
		t.Fatal(bd.err)
	}
	wasm, err := os.ReadFile(bd.path)
	if err != nil {
		t.Fatal(err)
	}
	return wasm
}

// cWasm builds the C kit's bot from srcs (files of bots/wasm/c) with clang and returns the
// module's bytes. Without clang the test is skipped on a developer's machine, and fails
// under CI, which installs it (.ci/run).
func cWasm(t testing.TB, name string, srcs ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath("clang"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("clang is not installed, and CI must build the C kit: .ci/run installs clang lld wasi-libc libclang-rt-14-dev-wasm32")
		}
		t.Skip("clang is not installed: apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32 to test the C kit")
	}
	v, _ := builds.LoadOrStore("c:"+name, new(build))
	bd := v.(*build)
	bd.once.Do(func() {
		bd.path = filepath.Join(buildDir, name+".wasm")
		args := []string{"--target=wasm32-wasi", "-O2", "-Wall", "-Werror", "-o", bd.path}
		cmd := exec.Command("clang", append(args, srcs...)...)
		cmd.Dir = filepath.Join(repoRoot(t), "bots", "wasm", "c")
		if out, err := cmd.CombinedOutput(); err != nil {
			bd.err = &buildError{name, string(out), err}
		}
	})
	if bd.err != nil {
		t.Fatal(bd.err)
	}
	wasm, err := os.ReadFile(bd.path)
	if err != nil {
		t.Fatal(err)
	}
	return wasm
}

// watWasm assembles a bot written in WebAssembly text (a file of the repository) with
// wat2wasm. Without it the test is skipped on a developer's machine, and fails under CI,
// which installs it (.ci/run: Debian's wabt).
func watWasm(t testing.TB, path string) []byte {
	t.Helper()
	if _, err := exec.LookPath("wat2wasm"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("wat2wasm is not installed, and CI must assemble the WebAssembly text bot: .ci/run installs wabt")
		}
		t.Skip("wat2wasm is not installed: apt-get install wabt")
	}
	out := filepath.Join(t.TempDir(), filepath.Base(path)+".wasm")
	if b, err := exec.Command("wat2wasm", filepath.Join(repoRoot(t), path), "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("wat2wasm %s: %v\n%s", path, err, b)
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return wasm
}

// watModule compiles a bot written in WebAssembly text.
func watModule(t testing.TB, path string) *Module {
	t.Helper()
	m, err := testRuntime(t).Compile(context.Background(), watWasm(t, path))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// cModule compiles a bot of the C kit.
func cModule(t testing.TB, name string, srcs ...string) *Module {
	t.Helper()
	m, err := testRuntime(t).Compile(context.Background(), cWasm(t, name, srcs...))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

type buildError struct {
	what, out string
	err       error
}

func (e *buildError) Error() string { return "build " + e.what + ": " + e.err.Error() + "\n" + e.out }

// runtime is the tests' shared runtime.
func testRuntime(t testing.TB) *Runtime {
	t.Helper()
	shared.once.Do(func() {
		cache, err := testCache()
		if err != nil {
			shared.err = err
			return
		}
		shared.rt, shared.err = NewRuntime(context.Background(), Limits{MemoryPages: 1024}, cache)
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.rt
}

// testCache keeps compiled machine code in the user's cache directory, so that a second run
// of the tests compiles nothing.
func testCache() (wazero.CompilationCache, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return wazero.NewCompilationCache(), nil
	}
	return wazero.NewCompilationCacheWithDir(filepath.Join(dir, "orrery", "hosted-test-wazero"))
}

// module compiles the Go package pkg as a hosted bot.
func module(t testing.TB, pkg string) *Module {
	t.Helper()
	m, err := testRuntime(t).Compile(context.Background(), goWasm(t, pkg))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// start starts m for one seat and closes it with the test.
func start(t testing.TB, m *Module, seed uint64) *Bot {
	t.Helper()
	b, err := m.Start(context.Background(), seed)
	if err != nil {
		t.Fatalf("start: %v\nstderr:\n%s", err, stderrOf(b))
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	return b
}

func stderrOf(b *Bot) string {
	if b == nil {
		return ""
	}
	return b.Stderr()
}

// skipShort skips a test that plays whole matches under -short: the full run (go test ./...)
// plays them, and the race detector's short run (.ci/run) would take many minutes over them.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("plays whole matches of hosted bots: not under -short")
	}
}
