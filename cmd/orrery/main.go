// Command orrery is the arena server and its tools.
//
//	orrery serve      run the gRPC arena with metrics, the embedded store and house bots
//	orrery play       run one match of built-in bots through a real gRPC server
//	orrery games      list the games, their seats and options
//	orrery replay ID  print a finished match's replay and verify it
//	orrery join       play one seat of a match with a built-in bot
//	orrery tournament play built-in bots against each other and print the standings
//	orrery standings  print a server's ladder leaderboard
//	orrery bot        register, inspect, revoke and resume ladder bots
//	orrery ladder     play a built-in bot on a server's ladder as a registered bot
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	_ "github.com/orrery/orrery/engine/games" // registers every game
)

const usage = `orrery: a game server for bots

usage:
  orrery serve   [--addr 127.0.0.1:7070] [--metrics-addr 127.0.0.1:9090] [--db orrery.db] [--house 2]
  orrery play    --game G --bots random,random[,...] [--seed N] [--json] [--server ADDR] [--option k=v]
  orrery games   [--json]
  orrery replay  MATCH_ID [--server ADDR | --db orrery.db]
  orrery join    --token T [--bot random] [--server 127.0.0.1:7070]
  orrery tournament --game G --bots a,b,c[,...] [--games N] [--format round-robin|swiss] [--duplicate]
                 [--seats K] [--parallel P] [--seed N] [--json] [--server ADDR | --db tournaments.db]
  orrery standings [--game G] [--server ADDR] [--top 20] [--no-house] [--watch 2s] [--json]
  orrery bot     register NAME | info [NAME] | list | revoke [NAME] | resume [NAME]  [--server ADDR] [--key K]
  orrery ladder  --key K [--bot random] [--games G,...] [--max-matches 1] [--matches N] [--server ADDR]

Run "orrery <command> -h" for a command's flags.
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	args := os.Args[2:]
	switch os.Args[1] {
	case "serve":
		err = serve(ctx, args)
	case "play":
		err = play(ctx, os.Stdout, args)
	case "games":
		err = games(os.Stdout, args)
	case "replay":
		err = replay(ctx, os.Stdout, args)
	case "join":
		err = join(ctx, os.Stdout, args)
	case "tournament":
		err = tournament(ctx, os.Stdout, args)
	case "standings":
		err = standings(ctx, os.Stdout, args)
	case "bot":
		err = bot(ctx, os.Stdout, args)
	case "ladder":
		err = ladderBot(ctx, os.Stdout, args)
	case "-h", "--help", "help":
		fmt.Print(usage)
		return
	default:
		fmt.Fprintf(os.Stderr, "orrery: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "orrery %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}
