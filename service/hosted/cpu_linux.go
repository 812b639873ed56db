//go:build linux

package hosted

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadClock is the CPU time of the calling OS thread. A module runs on one goroutine locked
// to its thread (Bot.run), so the difference between two readings inside its host calls is
// the CPU it spent between them, whatever else the machine was doing.
func threadClock() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
