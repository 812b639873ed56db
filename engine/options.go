package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Renamer is implemented by games that renamed options, so that New refuses an old name with
// a message naming the new one.
type Renamer interface {
	// RenamedOptions maps each old option name to its new name.
	RenamedOptions() map[string]string
}

// CheckOptionNames rejects option names the game does not know. A name in renamed (old name
// → new name) is refused with a message naming its replacement, so a user of an older release
// learns the new spelling instead of guessing. Every error wraps ErrBadOption.
func CheckOptionNames(info Info, opts map[string]string, renamed map[string]string) error {
	for name := range opts {
		if knownOption(info, name) {
			continue
		}
		if to, ok := renamed[name]; ok {
			return fmt.Errorf("%w: %s option %q was renamed %q", ErrBadOption, info.Name, name, to)
		}
		return fmt.Errorf("%w: %s has no option %q (options: %s)", ErrBadOption, info.Name, Clip(name, 64), strings.Join(optionNames(info), ", "))
	}
	return nil
}

func knownOption(info Info, name string) bool {
	for _, o := range info.Options {
		if o.Name == name {
			return true
		}
	}
	return false
}

func optionNames(info Info) []string {
	names := make([]string, len(info.Options))
	for i, o := range info.Options {
		names[i] = o.Name
	}
	sort.Strings(names)
	return names
}

// IsSnakeCase reports whether name is lower_snake_case: lower-case letters and digits in
// words joined by single underscores, as every option name is.
func IsSnakeCase(name string) bool {
	if name == "" || name[0] == '_' || name[len(name)-1] == '_' || strings.Contains(name, "__") {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return name[0] >= 'a' && name[0] <= 'z'
}

// Clip shortens client-supplied text quoted in an error or a log line, so that a huge
// option name or value cannot make the server hold or write it in full.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…(%d bytes)", s[:cut], len(s))
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// IntOption is the whole-number option name of cfg (its default from info when unset), which
// must lie in lo..hi; every game words the error the same way.
func IntOption(cfg Config, info Info, name string, lo, hi int) (int, error) {
	v := cfg.Option(info, name)
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%w: %s must be a whole number from %d to %d, not %q", ErrBadOption, name, lo, hi, Clip(v, 32))
	}
	return n, nil
}
