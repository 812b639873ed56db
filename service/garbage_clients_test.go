package service

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// garbageChildEnv names the server's address for the test binary re-run as the garbage seats'
// clients (garbageChild): on a real deployment their CPU is not the server's.
const garbageChildEnv = "ORRERY_GARBAGE_CLIENTS"

// garbageCounts is what the garbage seats' clients have seen so far.
type garbageCounts struct{ joins, rejected, errs int64 }

// garbageClients are the garbage seats' clients, in this process or in a child.
type garbageClients interface {
	counts() garbageCounts
	stop()
}

// inProcessGarbage runs a client a seat in this process, each on a connection of its own.
type inProcessGarbage struct {
	cancel          context.CancelFunc
	wg              sync.WaitGroup
	joins, rejected atomic.Int64
	errs            atomic.Int64
}

func startGarbage(tb testing.TB, target string, tokens []string) *inProcessGarbage {
	ctx, cancel := context.WithCancel(context.Background())
	g := &inProcessGarbage{cancel: cancel}
	for _, token := range tokens {
		gc, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			cancel()
			g.wg.Wait()
			tb.Fatal(err)
		}
		g.wg.Go(func() {
			defer gc.Close()
			sendGarbage(ctx, orreryv1.NewArenaServiceClient(gc), token, g)
		})
	}
	return g
}

func (g *inProcessGarbage) counts() garbageCounts {
	return garbageCounts{g.joins.Load(), g.rejected.Load(), g.errs.Load()}
}

func (g *inProcessGarbage) stop() {
	g.cancel()
	g.wg.Wait()
}

// childGarbage is the test binary re-run with garbageChildEnv: it reads the seats' tokens a
// line each, then reports its counts a line every 50 ms until its stdin closes.
type childGarbage struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	mu    sync.Mutex
	last  garbageCounts
	done  chan struct{}
}

func startChildGarbage(tb testing.TB, target string, tokens []string) *childGarbage {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), garbageChildEnv+"="+target)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	g := &childGarbage{cmd: cmd, stdin: stdin, done: make(chan struct{})}
	go func() {
		defer close(g.done)
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			var c garbageCounts
			if _, err := fmt.Sscan(lines.Text(), &c.joins, &c.rejected, &c.errs); err == nil {
				g.mu.Lock()
				g.last = c
				g.mu.Unlock()
			}
		}
	}()
	w := bufio.NewWriter(stdin)
	for _, token := range tokens {
		fmt.Fprintln(w, token)
	}
	fmt.Fprintln(w) // the tokens end
	if err := w.Flush(); err != nil {
		g.stop()
		tb.Fatal(err)
	}
	return g
}

func (g *childGarbage) counts() garbageCounts {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.last
}

func (g *childGarbage) stop() {
	g.stdin.Close()
	<-g.done
	g.cmd.Wait()
}

// garbageChild is the child's side of childGarbage.
func garbageChild(target string) int {
	in := bufio.NewScanner(os.Stdin)
	var tokens []string
	for in.Scan() && in.Text() != "" {
		tokens = append(tokens, in.Text())
	}
	g := startGarbage(childTB{}, target, tokens)
	closed := make(chan struct{})
	go func() {
		io.Copy(io.Discard, os.Stdin) // until the parent closes it
		close(closed)
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	report := func() {
		c := g.counts()
		fmt.Printf("%d %d %d\n", c.joins, c.rejected, c.errs)
	}
	for {
		select {
		case <-tick.C:
			report()
		case <-closed:
			g.stop()
			report()
			return 0
		}
	}
}

// childTB is the testing.TB startGarbage wants, in a child with no test running.
type childTB struct{ testing.TB }

func (childTB) Fatal(args ...any) {
	fmt.Fprintln(os.Stderr, args...)
	os.Exit(1)
}
