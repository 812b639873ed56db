package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print the module version, commit and Go version this orrery was built from",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			info, ok := debug.ReadBuildInfo()
			if !ok {
				return fmt.Errorf("this binary carries no build information (built without module support)")
			}
			printVersion(cmd.OutOrStdout(), info)
			return nil
		},
	}
}

// printVersion says which module version and commit a binary is: "(devel)" for a build from
// a checkout, with the commit and whether the tree had uncommitted changes.
func printVersion(w io.Writer, info *debug.BuildInfo) {
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	fmt.Fprintf(w, "orrery %s\n", info.Main.Version)
	if rev := settings["vcs.revision"]; rev != "" {
		line := "commit " + rev
		if t := settings["vcs.time"]; t != "" {
			line += " of " + t
		}
		if settings["vcs.modified"] == "true" {
			line += ", with uncommitted changes"
		}
		fmt.Fprintln(w, line)
	} else {
		fmt.Fprintln(w, "commit unknown: built without version control stamping (-buildvcs=false, or outside a checkout)")
	}
	fmt.Fprintf(w, "%s %s/%s\n", info.GoVersion, settings["GOOS"], settings["GOARCH"])
}
