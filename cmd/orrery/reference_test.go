package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
)

var update = flag.Bool("update", false, "rewrite the README's command reference from the command tree")

// The README's "Operating" block is the command reference, generated from the command tree:
// go test ./cmd/orrery -run README -update rewrites it.
const (
	refBegin = "<!-- orrery reference: generated from the command tree by `go test ./cmd/orrery -run README -update` -->\n```\n"
	refEnd   = "```\n"
)

func TestREADME_OperatingMatchesTheCLI(t *testing.T) {
	const path = "../../README.md"
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok := strings.Cut(string(readme), refBegin)
	if !ok {
		t.Fatalf("README.md has no %q", refBegin)
	}
	old, after, ok := strings.Cut(rest, refEnd)
	if !ok {
		t.Fatal("README.md: the reference block is not closed")
	}
	want := reference(newRoot(), 100)
	if old == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(before+refBegin+want+refEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's command reference is stale; run go test ./cmd/orrery -run README -update. Want:\n%s", want)
}

func TestReference_EveryCommandAndFlag(t *testing.T) {
	ref := reference(newRoot(), 100)
	for _, want := range []string{
		"orrery serve ", "[--addr 127.0.0.1:7070]", "[--log-level info]", "[--admin-key",
		"orrery play ", "--game G --bots a,b,...", "[--option name=value]",
		"orrery bot register NAME", "[--description", "COMMAND [--json] [--key KEY]", "[--json]",
		"orrery matches", "orrery watch ", "MATCH_ID", "orrery version",
	} {
		if !strings.Contains(ref, want) {
			t.Errorf("no %q in:\n%s", want, ref)
		}
	}
	for _, line := range strings.Split(ref, "\n") {
		if len(line) > 100 {
			t.Errorf("line of %d columns: %q", len(line), line)
		}
	}
}

// TestREADME_LinksEachGamesRules: the README links the rules file `orrery games` names, and
// the file is there.
func TestREADME_LinksEachGamesRules(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range engine.Names() {
		g, _ := engine.Lookup(name)
		if link := "(" + rulesFile(g.Info()) + ")"; !strings.Contains(string(readme), link) {
			t.Errorf("README.md does not link %s's rules %s", name, link)
		}
		if _, err := os.Stat(filepath.Join("..", "..", rulesFile(g.Info()))); err != nil {
			t.Errorf("%s's rules: %v", name, err)
		}
	}
}
