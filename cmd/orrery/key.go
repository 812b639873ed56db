package main

import (
	"os"
	"strings"

	botladder "github.com/orrery/orrery/bots/ladder"
)

// keyFrom is the key a command was given: flag, or else the environment variable env. Space
// around it (the newline a paste brings) is dropped; a key gRPC cannot send is refused here,
// naming where it came from, before anything is dialled.
func keyFrom(flag, env string) (string, error) {
	from, key := "--key", flag
	if key == "" {
		from, key = env, os.Getenv(env)
	}
	key = strings.TrimSpace(key)
	if err := botladder.CheckKey(key); err != nil {
		return "", usagef("%s: %v; paste it again", from, err)
	}
	return key, nil
}
