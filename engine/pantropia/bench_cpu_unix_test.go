//go:build unix

package pantropia

import "syscall"

// cpuNanos is the CPU time this process has used. Benchmarks report it beside wall time
// because the machines they run on are shared: wall time there measures the neighbours.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
