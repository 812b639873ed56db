// Command orrery is the arena server and its tools. Every command, its flags and its help
// live in one place, the cobra tree built by newRoot; `orrery help` prints it, and the
// README's command reference is checked against it (readme_test.go).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	_ "github.com/orrery/orrery/engine/games" // registers every game
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := execute(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	if err != nil {
		os.Exit(exitCode(err))
	}
}

// execute runs the command line args, writing results to stdout and errors to stderr.
func execute(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err != nil {
		err = explain(err, serverOf(cmd))
		fmt.Fprintf(stderr, "%s: %v\n", cmd.CommandPath(), err)
		if isUsageError(err) {
			fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		}
	}
	return err
}

// usageError is a command line that cannot be run as written.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

func isUsageError(err error) bool {
	_, ok := err.(usageError)
	return ok
}

// exitCode is 2 for a command line that cannot be run, 1 for a command that failed.
func exitCode(err error) int {
	if isUsageError(err) {
		return 2
	}
	return 1
}

// newRoot builds the command tree.
func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "orrery",
		Short: "a game server for bots",
		Long: `Orrery is a gRPC game server for bots. It enforces the full rules of four tabletop games, and ` +
			`bots written in any language play them as seats over bidirectional streams, each seeing only what its player may know.

Start with 'orrery serve': the arena, with house bots playing every game on its ladder. ` +
			`'orrery games' lists the games, and 'orrery play' runs one match of built-in bots.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Flags are parsed by cobra; a bad one is a usage error.
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	root.PersistentFlags().BoolVar(&clientTransport.on, "tls", false, "client commands: reach the server over TLS (the system's CAs)")
	root.PersistentFlags().StringVar(&clientTransport.ca, "tls-ca", "", "client commands: trust the CA certificates in `FILE` (PEM); implies --tls")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err.Error()} })
	setHelp(root)
	asGroup(root)
	root.AddCommand(
		newServeCmd(),
		newPlayCmd(),
		newGamesCmd(),
		newReplayCmd(),
		newBackupCmd(),
		newJoinCmd(),
		newTournamentCmd(),
		newTournamentsCmd(),
		newSPRTCmd(),
		newStandingsCmd(),
		newBotCmd(),
		newLadderCmd(),
		newMatchesCmd(),
		newExportCmd(),
		newWatchCmd(),
		newVersionCmd(),
	)
	return root
}

// asGroup makes cmd a command of commands: alone it prints its help; with an unknown
// command it says so, with the nearest names.
func asGroup(cmd *cobra.Command) {
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q", args[0])
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += fmt.Sprintf("; did you mean %q?", s[0])
		}
		return usageError{msg}
	}
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
}

// noArgs refuses positional arguments with a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments; got %q", cmd.CommandPath(), args)
	}
	return nil
}

// oneArg wants exactly one positional argument, named what in the error.
func oneArg(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != 1 {
			return usagef("%s wants one %s; got %d arguments", cmd.CommandPath(), what, len(args))
		}
		return nil
	}
}
