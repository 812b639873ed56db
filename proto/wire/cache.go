package wire

import (
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// ActionCache remembers the typed envelope and notation of each action listed so far: both
// depend on the action alone (the engine contract), and legal lists repeat within a match and
// across matches of one configured game, so a server builds each once. Cached envelopes are
// shared by many decisions and never modified; protobuf messages are safe to marshal
// concurrently. An ActionCache is safe for concurrent use.
type ActionCache struct {
	// A map of the action itself, not a sync.Map: its keys are interfaces, and boxing an
	// action (32 bytes) to look it up allocated once per listed action per decision.
	mu sync.RWMutex // guards m
	m  map[engine.Action]cachedAction
	// lists holds whole legal lists that recur (every match of a game opens with the same
	// choices), by hash: a decision listing one shares its typed and notation lists instead
	// of building them. A slot is kept by a list that keeps being asked for (listed).
	lists [listSlots]atomic.Pointer[cachedList]
	// seen is, per slot, the hash of the list last asked for and missing (SharedList): a
	// list is admitted there the second time in a row, not at its first sight.
	seen [listSlots]atomic.Uint64
}

// listSlots is how many recurring legal lists an ActionCache keeps; maxListed is the longest
// it keeps.
const (
	listSlots = 256
	maxListed = 256
)

// cachedList is a legal list with its typed and notation lists (once built: a server's
// seats may share the list before any decision has listed it), shared by every decision
// that lists it and never modified. hits counts its uses less the other lists that wanted
// its slot meanwhile: at zero, the next one takes the slot.
type cachedList struct {
	hash     uint64
	legal    []engine.Action
	built    bool
	env      []*orreryv1.Action
	notation []string
	hits     atomic.Int32
}

// listSeed seeds the hash of legal lists.
var listSeed = maphash.MakeSeed()

// hashList hashes a legal list by its bytes: an engine.Action is plain integers.
func hashList(legal []engine.Action) uint64 {
	if len(legal) == 0 {
		return maphash.Bytes(listSeed, nil)
	}
	return maphash.Bytes(listSeed, unsafe.Slice((*byte)(unsafe.Pointer(&legal[0])), len(legal)*int(unsafe.Sizeof(legal[0]))))
}

// listed is legal's shared lists if legal recurs, or nil, with legal's hash.
func (c *ActionCache) listed(legal []engine.Action) (*cachedList, uint64) {
	return c.listedAs(legal, hashList(legal))
}

// listedAs is listed for a list whose hash is h.
func (c *ActionCache) listedAs(legal []engine.Action, h uint64) (*cachedList, uint64) {
	if l := c.lists[h%listSlots].Load(); l != nil && l.hash == h && sameList(l.legal, legal) {
		if l.hits.Load() < 1<<20 {
			l.hits.Add(1)
		}
		return l, h
	}
	return nil, h
}

// sameList reports whether a and b list the same actions; a list is itself at once.
func sameList(a, b []engine.Action) bool {
	if len(a) > 0 && len(a) == len(b) && &a[0] == &b[0] {
		return true
	}
	return slices.Equal(a, b)
}

// ListHash is legal's hash, for DecisionParts.Hashed.
func ListHash(legal []engine.Action) uint64 { return hashList(legal) }

// SharedList is legal, whose hash is h (ListHash), as a list shared with every match that
// lists it, if it recurs (ActionCache.lists), or nil: read it, never write it. A server keeps
// it as a seat's legal list rather than a copy of its own.
func (c *ActionCache) SharedList(legal []engine.Action, h uint64) []engine.Action {
	if c == nil || len(legal) > maxListed {
		return nil
	}
	l, _ := c.listedAs(legal, h)
	if l == nil && c.seen[h%listSlots].Swap(h) == h {
		l = c.admit(h, legal, nil)
	}
	if l == nil {
		return nil
	}
	return l.legal
}

// admit shares legal, and d's lists of it if d is not nil (just built whole), for the
// decisions that list it next, unless the slot is kept by a list that is asked for more;
// it returns what it stored, or nil.
func (c *ActionCache) admit(h uint64, legal []engine.Action, d *orreryv1.Decision) *cachedList {
	slot := &c.lists[h%listSlots]
	old := slot.Load()
	if old != nil && old.hash == h && slices.Equal(old.legal, legal) {
		// Listed by a seat before any decision built its lists: they join it.
		l := &cachedList{hash: h, legal: old.legal, built: d != nil, env: d.GetLegal(), notation: d.GetLegalNotation()}
		l.hits.Store(old.hits.Load())
		if slot.CompareAndSwap(old, l) {
			return l
		}
		return nil
	}
	if old != nil && old.hits.Add(-1) >= 0 {
		return nil
	}
	l := &cachedList{hash: h, legal: slices.Clone(legal), built: d != nil, env: d.GetLegal(), notation: d.GetLegalNotation()}
	slot.Store(l)
	return l
}

type cachedAction struct {
	env      *orreryv1.Action
	notation string
}

// maxCached bounds a cache: past it, new actions are built each time (open-ended games list
// new actions forever).
const maxCached = 1 << 16

func (c *ActionCache) get(st engine.State, a engine.Action) cachedAction {
	c.mu.RLock()
	ca, ok := c.m[a]
	c.mu.RUnlock()
	if ok {
		return ca
	}
	ca = cachedAction{env: Action(st.ActionProto(a)), notation: st.FormatAction(a)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.m[a]; ok {
		return prev
	}
	if len(c.m) < maxCached {
		if c.m == nil {
			c.m = make(map[engine.Action]cachedAction)
			// The envelopes' encoded bytes are kept beside the cache, keyed by envelope, and
			// must go with it: a server drops the caches of option sets it no longer plays.
			runtime.AddCleanup(c, forgetEncoded, c.m)
		}
		c.m[a] = ca
		registerEncoded(ca.env)
	}
	return ca
}

// Notation is a's notation, from the cache when a was listed before (nil cache: none): a
// match logs the notation of every step, and the step is almost always a listed action.
func (c *ActionCache) Notation(st engine.State, a engine.Action) string {
	if c != nil {
		c.mu.RLock()
		ca, ok := c.m[a]
		c.mu.RUnlock()
		if ok {
			return ca.notation
		}
	}
	return st.FormatAction(a)
}
