package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// defaultWidth is the width text wraps to when the output is not a terminal and COLUMNS is
// not set.
const defaultWidth = 80

// termWidth is the width of the terminal w writes to, else $COLUMNS, else defaultWidth.
func termWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 20 {
			return cols
		}
	}
	if cols, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && cols > 20 {
		return cols
	}
	return defaultWidth
}

// wrap fills each paragraph of text to width columns. A line that starts with a space is
// kept as written (an example or a list), and so is a blank line.
func wrap(text string, width int) string {
	var b strings.Builder
	var para []string
	flush := func() {
		if len(para) > 0 {
			b.WriteString(fill(strings.Join(para, " "), "", 0, width))
			para = para[:0]
		}
	}
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		switch {
		case line == "" || line[0] == ' ':
			flush()
			b.WriteString(line)
			b.WriteByte('\n')
		default:
			para = append(para, line)
		}
	}
	flush()
	return b.String()
}

// fill breaks words into lines of at most width columns, the first starting at column
// start, each after it with indent; a word longer than a line gets a line of its own.
func fill(words, indent string, start, width int) string {
	var b strings.Builder
	col := start
	for i, w := range strings.Fields(words) {
		n := len([]rune(w))
		switch {
		case i == 0:
		case col+1+n > width:
			b.WriteString("\n" + indent)
			col = len(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += n
	}
	b.WriteByte('\n')
	return b.String()
}

// setHelp makes every command's help wrap to the terminal: its description, its
// subcommands and its flags.
func setHelp(root *cobra.Command) {
	root.SetHelpFunc(func(cmd *cobra.Command, _ []string) {
		w := cmd.OutOrStdout()
		width := termWidth(w)
		text := cmd.Long
		if text == "" {
			text = cmd.Short
		}
		fmt.Fprint(w, wrap(text, width))
		fmt.Fprint(w, "\n"+usageText(cmd, width))
	})
	root.SetUsageFunc(func(cmd *cobra.Command) error {
		fmt.Fprint(cmd.OutOrStderr(), usageText(cmd, termWidth(cmd.OutOrStderr())))
		return nil
	})
}

// usageText is a command's usage line, examples, subcommands and flags.
func usageText(cmd *cobra.Command, width int) string {
	var b strings.Builder
	b.WriteString("Usage:\n")
	if cmd.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "  %s COMMAND [flags]\n", cmd.CommandPath())
	} else {
		fmt.Fprintf(&b, "  %s\n", cmd.UseLine())
	}
	if cmd.Example != "" {
		fmt.Fprintf(&b, "\nExamples:\n%s\n", strings.TrimRight(cmd.Example, "\n"))
	}
	if cmd.HasAvailableSubCommands() {
		b.WriteString("\nCommands:\n")
		pad := 0
		for _, c := range cmd.Commands() {
			if c.IsAvailableCommand() {
				pad = max(pad, len(c.Name()))
			}
		}
		indent := strings.Repeat(" ", pad+4)
		for _, c := range cmd.Commands() {
			if !c.IsAvailableCommand() {
				continue
			}
			fmt.Fprintf(&b, "  %-*s  %s", pad, c.Name(), fill(c.Short, indent, len(indent), width))
		}
	}
	if cmd.HasAvailableLocalFlags() {
		fmt.Fprintf(&b, "\nFlags:\n%s", cmd.LocalFlags().FlagUsagesWrapped(width))
	}
	if cmd.HasAvailableInheritedFlags() {
		fmt.Fprintf(&b, "\nGlobal flags:\n%s", cmd.InheritedFlags().FlagUsagesWrapped(width))
	}
	if cmd.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "\nRun '%s COMMAND --help' for a command's flags.\n", cmd.CommandPath())
	}
	return b.String()
}
