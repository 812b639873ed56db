package ladder

import "github.com/orrery/orrery/service/lookalike"

// Reserved reports whether name is, or looks like, a registered or house bot's: the same
// after case folding and Unicode look-alikes (service/lookalike: a Cyrillic "о", U+2010 for
// the hyphen). A client creating a match may not seat someone under it
// (service.Config.Names).
func (l *Ladder) Reserved(name string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.byName[name]; ok {
		return true
	}
	skel := lookalike.Skeleton(name)
	for n := range l.byName {
		if lookalike.Skeleton(n) == skel {
			return true
		}
	}
	return false
}

// BotID is the identity of the registered or house bot called name, revoked or not (it played
// its matches all the same): ListMatches by bot resolves the name with it
// (service.Config.Bots).
func (l *Ladder) BotID(name string) (int64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.byName[name]; b != nil {
		return b.id, true
	}
	return 0, false
}
