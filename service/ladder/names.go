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
