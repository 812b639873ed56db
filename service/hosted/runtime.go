// Package hosted runs bots that are WebAssembly modules (WASI preview 1) inside the server,
// one instance per seat, on wazero. A module has no files, no network and no environment; its
// memory is capped; its clock is a monotonic one that starts with its seat and its random
// source is seeded by the host, so a bot that does not read the clock plays the same game
// again from the same seed. It speaks a line protocol on stdin and stdout (protocol.go,
// docs/hosted.md), and a broken limit is a Verdict for its seat.
//
// A Runtime compiles each module once (wazero's compilation cache keeps the machine code);
// Module.Start instantiates it for one seat; Play drives a seat with it as the server's
// house bots are driven.
package hosted

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// Limits bound every instance of a Runtime. The zero value of each field takes the default
// in its comment.
type Limits struct {
	ModuleBytes int           // the largest module accepted (64 MiB)
	MemoryPages uint32        // linear memory per instance, in 64 KiB pages (2048: 128 MiB)
	LineBytes   int           // the longest line a bot may print, its answer included (64 KiB)
	StderrBytes int           // how much of a bot's stderr is kept, its newest bytes (8 KiB)
	StartTime   time.Duration // from instantiation to the bot's first read of stdin (5 s)
	// Untimed is how long a decision that has no deadline may take (10 s): a match without
	// a clock must not wait forever on a bot that loops.
	Untimed time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.ModuleBytes <= 0 {
		l.ModuleBytes = 64 << 20
	}
	if l.MemoryPages == 0 {
		l.MemoryPages = 2048
	}
	if l.LineBytes <= 0 {
		l.LineBytes = 64 << 10
	}
	if l.StderrBytes <= 0 {
		l.StderrBytes = 8 << 10
	}
	if l.StartTime <= 0 {
		l.StartTime = 5 * time.Second
	}
	if l.Untimed <= 0 {
		l.Untimed = 10 * time.Second
	}
	return l
}

// wasiModule is the one module a hosted bot may import from.
const wasiModule = wasi_snapshot_preview1.ModuleName

// Runtime compiles and instantiates hosted bots. It is safe for concurrent use.
type Runtime struct {
	rt     wazero.Runtime
	limits Limits

	mu      sync.Mutex // guards modules
	modules map[string]*Module
}

// NewRuntime starts a runtime. cache, if set, keeps compiled machine code across runtimes
// (wazero.NewCompilationCacheWithDir keeps it across restarts); nil keeps it in this one.
func NewRuntime(ctx context.Context, limits Limits, cache wazero.CompilationCache) (*Runtime, error) {
	limits = limits.withDefaults()
	cfg := wazero.NewRuntimeConfig().
		// A deadline interrupts a module by cancelling the context its _start runs under.
		WithCloseOnContextDone(true)
	// Memory is capped per instance by the allocator (memory.go), not by the runtime's page
	// limit: a growth the runtime refuses never reaches the allocator, so it could not be told
	// apart from any other death.
	if cache != nil {
		cfg = cfg.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("hosted: instantiate WASI: %w", err)
	}
	return &Runtime{rt: rt, limits: limits, modules: make(map[string]*Module)}, nil
}

// Limits is what the runtime's instances are held to.
func (r *Runtime) Limits() Limits { return r.limits }

// Close ends every instance and frees every compiled module.
func (r *Runtime) Close(ctx context.Context) error { return r.rt.Close(ctx) }

// Module is one compiled bot, shared by all its seats.
type Module struct {
	r        *Runtime
	Digest   string // the hex SHA-256 of its bytes: its content address
	Size     int
	Compile  time.Duration // how long its compilation took
	compiled wazero.CompiledModule
}

// Digest is the content address of a module's bytes.
func Digest(wasm []byte) string {
	sum := sha256.Sum256(wasm)
	return hex.EncodeToString(sum[:])
}

// ErrInvalid wraps every reason a module is refused.
var ErrInvalid = errors.New("invalid module")

// Compile validates and compiles wasm, once per content: a module already compiled is
// returned as it is.
func (r *Runtime) Compile(ctx context.Context, wasm []byte) (*Module, error) {
	if len(wasm) > r.limits.ModuleBytes {
		return nil, fmt.Errorf("%w: %d bytes, over the limit of %d", ErrInvalid, len(wasm), r.limits.ModuleBytes)
	}
	digest := Digest(wasm)
	r.mu.Lock()
	defer r.mu.Unlock() // one compilation at a time: each takes most of a core
	if m, ok := r.modules[digest]; ok {
		return m, nil
	}
	start := time.Now()
	compiled, err := r.rt.CompileModule(ctx, wasm)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if err := r.check(compiled); err != nil {
		compiled.Close(ctx)
		return nil, err
	}
	m := &Module{r: r, Digest: digest, Size: len(wasm), Compile: time.Since(start), compiled: compiled}
	r.modules[digest] = m
	return m, nil
}

// check refuses a module that could not run as a bot: one that imports anything but WASI,
// has no _start, or needs more memory than the cap from its start.
func (r *Runtime) check(c wazero.CompiledModule) error {
	var foreign []string
	for _, f := range c.ImportedFunctions() {
		if mod, name, _ := f.Import(); mod != wasiModule {
			foreign = append(foreign, mod+"."+name)
		}
	}
	if len(c.ImportedMemories()) > 0 {
		foreign = append(foreign, "a memory")
	}
	if len(foreign) > 0 {
		sort.Strings(foreign)
		return fmt.Errorf("%w: it imports %v; a hosted bot may import only %s", ErrInvalid, foreign, wasiModule)
	}
	if _, ok := c.ExportedFunctions()["_start"]; !ok {
		return fmt.Errorf("%w: it exports no _start: build it as a WASI command (a main function)", ErrInvalid)
	}
	mem, ok := c.ExportedMemories()["memory"]
	if !ok {
		return fmt.Errorf("%w: it exports no memory named \"memory\", which WASI needs", ErrInvalid)
	}
	if mem.Min() > r.limits.MemoryPages {
		return fmt.Errorf("%w: it starts with %d pages of memory, over the cap of %d", ErrInvalid, mem.Min(), r.limits.MemoryPages)
	}
	return nil
}

// Release frees the module's compiled code once no seat plays it any more.
func (m *Module) Release(ctx context.Context) error {
	m.r.mu.Lock()
	delete(m.r.modules, m.Digest)
	m.r.mu.Unlock()
	return m.compiled.Close(ctx)
}
