package games_test

import (
	"os"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
)

// TestTrainingDocNamesEverySlice keeps docs/training.md beside the code: every slice of every
// game's observation tensor is named there, in its game's section.
func TestTrainingDocNamesEverySlice(t *testing.T) {
	doc, err := os.ReadFile("../../docs/training.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range tensorGames {
		tz, ok, err := engine.TensorsOf(g.game, engine.Config{Seats: g.seats, Options: g.opts})
		if err != nil || !ok {
			t.Fatalf("%s: %v", g.game, err)
		}
		section := sectionOf(string(doc), "engine/"+g.game+"/tensor.go")
		if section == "" {
			t.Errorf("docs/training.md has no section for %s", g.game)
			continue
		}
		for _, s := range tz.(engine.Described).ObservationLayout() {
			if !strings.Contains(section, "`"+s.Name+"`") {
				t.Errorf("docs/training.md: %s's slice %q is not described", g.game, s.Name)
			}
		}
	}
}

// sectionOf is the "## " section of doc whose heading names path.
func sectionOf(doc, path string) string {
	for _, part := range strings.Split(doc, "\n## ") {
		if head, _, _ := strings.Cut(part, "\n"); strings.Contains(head, path) {
			return part
		}
	}
	return ""
}
