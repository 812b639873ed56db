package engine

import (
	"fmt"
	"sort"
	"sync"
)

// The registry is the one global in Orrery: every game adds itself from init().
var registry struct {
	mu    sync.RWMutex // guards games
	games map[string]Game
}

// Register adds g under its Info().Name. It panics on an empty or duplicate name, since
// both are programming errors found at start-up.
func Register(g Game) {
	name := g.Info().Name
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if name == "" {
		panic("engine: Register with empty game name")
	}
	if registry.games == nil {
		registry.games = make(map[string]Game)
	}
	if _, dup := registry.games[name]; dup {
		panic("engine: Register called twice for game " + name)
	}
	registry.games[name] = g
}

// Lookup returns the game registered under name.
func Lookup(name string) (Game, error) {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	g, ok := registry.games[name]
	if !ok {
		return nil, fmt.Errorf("unknown game %q (known: %v)", name, namesLocked())
	}
	return g, nil
}

// Names lists the registered games, sorted.
func Names() []string {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	names := make([]string, 0, len(registry.games))
	for n := range registry.games {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// New looks up game and starts a match of it.
func New(game string, cfg Config) (State, error) {
	g, err := Lookup(game)
	if err != nil {
		return nil, err
	}
	info := g.Info()
	if cfg.Seats < info.MinSeats || cfg.Seats > info.MaxSeats {
		return nil, fmt.Errorf("%w: %s takes %d to %d seats, not %d", ErrBadOption, info.Name, info.MinSeats, info.MaxSeats, cfg.Seats)
	}
	var renamed map[string]string
	if r, ok := g.(Renamer); ok {
		renamed = r.RenamedOptions()
	}
	if err := CheckOptionNames(info, cfg.Options, renamed); err != nil {
		return nil, err
	}
	return g.New(cfg)
}

// Option returns the value of option name in cfg, or its default from info.
func (cfg Config) Option(info Info, name string) string {
	if v, ok := cfg.Options[name]; ok {
		return v
	}
	for _, o := range info.Options {
		if o.Name == name {
			return o.Default
		}
	}
	return ""
}
