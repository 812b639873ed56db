package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

func newGamesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "games",
		Short: "list the games, their seats, options and built-in bots",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return games(cmd.OutOrStdout(), asJSON) },
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the catalog (with static geometry) as JSON")
	return cmd
}

func games(stdout io.Writer, asJSON bool) error {
	if asJSON {
		resp := &orreryv1.ListGamesResponse{}
		for _, name := range engine.Names() {
			g, _ := engine.Lookup(name)
			resp.Games = append(resp.Games, wire.GameInfo(g))
		}
		return printProto(stdout, resp)
	}
	printGames(stdout, termWidth(stdout))
	return nil
}

// printGames lists each game, its seats, bots, rules file and options, wrapped to width.
func printGames(w io.Writer, width int) {
	for i, name := range engine.Names() {
		g, _ := engine.Lookup(name)
		info := g.Info()
		if i > 0 {
			fmt.Fprintln(w)
		}
		head := fmt.Sprintf("%s (%s): %d-%d seats; built-in bots: %s; rules: %s", info.Name, info.Title,
			info.MinSeats, info.MaxSeats, list(builtin.Names(name)), rulesFile(info))
		fmt.Fprint(w, fill(head, "    ", 0, width))
		// Options in two columns where the help has room beside them; a long default, or a
		// narrow terminal, puts the help below.
		const maxCol = 34
		col := 0
		for _, o := range info.Options {
			if n := len(optionFlag(o)) + 4; n <= maxCol {
				col = max(col, n)
			}
		}
		for _, o := range info.Options {
			flag := "  " + optionFlag(o)
			if width-col < 30 || len(flag)+2 > col {
				fmt.Fprintf(w, "  %s      %s", fill(optionFlag(o), "      ", 2, width), fill(o.Help, "      ", 6, width))
				continue
			}
			fmt.Fprintf(w, "%-*s%s", col, flag, fill(o.Help, strings.Repeat(" ", col), col, width))
		}
	}
}

func optionFlag(o engine.Option) string { return "--option " + o.Name + "=" + o.Default }

// rulesFile is where a game's rules are written, named after its title:
// docs/rules/full-contact-catan.md for Full-Contact Catan.
func rulesFile(info engine.Info) string {
	return "docs/rules/" + strings.ReplaceAll(strings.ToLower(info.Title), " ", "-") + ".md"
}
