//go:build linux

package planet

import (
	"runtime"
	"syscall"
)

// cpuTime is the calling thread's CPU time in nanoseconds; lockThread pins the benchmark's
// goroutine to its thread first. The benchmarks report CPU time per operation beside wall
// time, since the machine they run on is shared: wall time there measures the neighbours as
// much as the code.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_THREAD, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
