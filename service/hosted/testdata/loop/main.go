// Command loop is a hosted bot that reads its first decision and never answers: the test of
// a deadline in a real match.
package main

import (
	"bufio"
	"os"
)

func main() {
	bufio.NewReader(os.Stdin).ReadString('\n')
	for {
	}
}
