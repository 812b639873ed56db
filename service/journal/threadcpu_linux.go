//go:build linux

package journal

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU runs f pinned to its OS thread and returns the CPU time the thread spent in it:
// the writer's own CPU, which its wall time overstates on a busy machine by the time it
// waited for a core.
func threadCPU(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := threadClock()
	f()
	return threadClock() - before
}

func threadClock() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
