package main

import (
	"slices"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestFlags_PlaceholdersAreNamed: every flag that the README's reference (and --help) shows
// with a placeholder rather than its default names what it takes (`DIR`, `AGE`), never
// pflag's type ("string", "float", "duration"), which says nothing to a person.
func TestFlags_PlaceholdersAreNamed(t *testing.T) {
	types := []string{"string", "int", "int32", "int64", "uint", "uint64", "float", "float64", "duration", "strings", "stringArray", "value"}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() == "bool" || !slices.Contains([]string{"", "0", "0s", "[]"}, f.DefValue) {
				return // no placeholder: a switch, or its default stands in for it (flagSynopsis)
			}
			if name, _ := pflag.UnquoteUsage(f); slices.Contains(types, name) {
				t.Errorf("%s --%s shows the placeholder %q: name it in its usage with backquotes", c.CommandPath(), f.Name, name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot())
}
