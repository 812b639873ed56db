package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"google.golang.org/protobuf/encoding/protojson"

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
		b, err := protojson.MarshalOptions{Multiline: true}.Marshal(resp)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, string(b))
		return nil
	}
	for _, name := range engine.Names() {
		g, _ := engine.Lookup(name)
		info := g.Info()
		fmt.Fprintf(stdout, "%s (%s): %d-%d seats; bots: %v\n", info.Name, info.Title, info.MinSeats, info.MaxSeats, builtin.Names(name))
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		for _, o := range info.Options {
			fmt.Fprintf(tw, "  --option %s=%s\t%s\n", o.Name, o.Default, o.Help)
		}
		tw.Flush()
	}
	return nil
}
