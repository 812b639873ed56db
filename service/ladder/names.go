package ladder

import "strings"

// Reserved reports whether name is a registered or house bot's, in any letter case: a
// client creating a match may not seat someone under it (service.Config.Names).
func (l *Ladder) Reserved(name string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.byName[name]; ok {
		return true
	}
	for n := range l.byName {
		if strings.EqualFold(n, name) {
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
