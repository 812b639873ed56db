package hosted

import (
	"sync/atomic"

	"github.com/tetratelabs/wazero/experimental"
)

// pageBytes is the size of a WebAssembly page.
const pageBytes = 64 << 10

// memory backs one instance's linear memory and holds it to the cap: a growth past it fails
// (memory.grow returns -1, as for any module at its maximum) and is remembered, so that a bot
// that dies of it gets MEMORY_LIMIT rather than RUNTIME_ERROR.
type memory struct {
	cap     uint64 // bytes
	buf     []byte
	refused atomic.Uint64 // the largest size refused, in bytes; 0 while none was
	size    atomic.Uint64 // len(buf), for the host to read
}

func (m *memory) refusedBytes() uint64 {
	if m == nil {
		return 0
	}
	return m.refused.Load()
}

var _ experimental.LinearMemory = (*memory)(nil)

// Reallocate grows the memory to size bytes, keeping its contents. Capacity doubles (up to
// the cap) so that a module growing a page at a time is not copied at every page.
func (m *memory) Reallocate(size uint64) []byte {
	if size > m.cap {
		if size > m.refused.Load() {
			m.refused.Store(size)
		}
		return nil
	}
	if size <= uint64(cap(m.buf)) {
		m.buf = m.buf[:size]
		m.size.Store(size)
		return m.buf
	}
	grown := make([]byte, size, min(max(size, 2*uint64(cap(m.buf))), m.cap))
	copy(grown, m.buf)
	m.buf = grown
	m.size.Store(size)
	return m.buf
}

// Free drops the memory for the collector.
func (m *memory) Free() { m.buf = nil }

// allocator hands the instance its memory (experimental.WithMemoryAllocator): one instance
// has one memory, so it is kept where the bot can read it.
type allocator struct {
	cap uint64
	mem *memory
}

func (a *allocator) Allocate(_, _ uint64) experimental.LinearMemory {
	a.mem = &memory{cap: a.cap}
	return a.mem
}
