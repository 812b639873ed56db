package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/orrery/orrery/service/store"
)

func newBackupCmd() *cobra.Command {
	var dbPath string
	cmd := &cobra.Command{
		Use:   "backup OUT",
		Short: "copy the database while the server runs (VACUUM INTO)",
		Long: `Write a consistent copy of the database to OUT, which must not exist. The server may ` +
			`keep running: the copy is taken online. Start a server on the copy with --db OUT.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := os.Stat(args[0]); err == nil {
				return usagef("%s exists; backup writes a new file", args[0])
			}
			db, err := store.Open(dbPath)
			if err != nil {
				return err
			}
			defer db.Close()
			if err := db.Backup(cmd.Context(), args[0]); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "backed up %s to %s\n", dbPath, args[0])
			return nil
		},
	}
	cmd.Flags().StringVar(&dbPath, "db", "orrery.db", "SQLite database path")
	return cmd
}
