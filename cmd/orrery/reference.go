package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// reference is the command reference of the README's "Operating" section, made from the
// command tree so that the two cannot drift: one line per command, its arguments and
// required flags as its usage says, then each other flag with its default or a placeholder.
func reference(root *cobra.Command, width int) string {
	var rows [][2]string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if !sub.IsAvailableCommand() {
				continue
			}
			path := strings.TrimPrefix(sub.CommandPath(), root.Name()+" ")
			if sub.HasAvailableSubCommands() {
				rows = append(rows, [2]string{path, "COMMAND" + flagSynopsis(sub.PersistentFlags(), "")})
				walk(sub)
				continue
			}
			use, _, _ := strings.Cut(sub.Use, " ")
			rest := strings.TrimSpace(strings.TrimPrefix(sub.Use, use))
			rows = append(rows, [2]string{path, strings.TrimSpace(rest + flagSynopsis(sub.LocalNonPersistentFlags(), rest))})
		}
	}
	walk(root)
	col := 0
	for _, r := range rows {
		col = max(col, len(r[0]))
	}
	indent := strings.Repeat(" ", len(root.Name())+1+col+1)
	var b strings.Builder
	for _, r := range rows {
		head := fmt.Sprintf("%s %-*s ", root.Name(), col, r[0])
		// A flag and its value are one word to fill, joined by a unit separator (not a space to fill).
		line := fill(r[1], indent, len(head), width)
		b.WriteString(strings.TrimRight(head+strings.ReplaceAll(line, "\x1f", " "), " \n") + "\n")
	}
	return b.String()
}

// flagSynopsis is " [--name default]" for each flag of fs that the usage line does not
// already name, "--help" left out.
func flagSynopsis(fs *pflag.FlagSet, use string) string {
	var b strings.Builder
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Name == "help" || f.Hidden || strings.Contains(use, "--"+f.Name+" ") || strings.HasSuffix(use, "--"+f.Name) {
			return
		}
		switch name, _ := pflag.UnquoteUsage(f); {
		case f.Value.Type() == "bool":
			fmt.Fprintf(&b, " [--%s]", f.Name)
		case f.DefValue != "" && f.DefValue != "0" && f.DefValue != "0s" && f.DefValue != "[]":
			fmt.Fprintf(&b, " [--%s\x1f%s]", f.Name, f.DefValue)
		default:
			fmt.Fprintf(&b, " [--%s\x1f%s]", f.Name, name)
		}
	})
	return b.String()
}
