//go:build !linux

package hosted

import "time"

// threadClock is zero off Linux: a thread's CPU time is read on Linux only, and a decision's
// CPU is then reported as zero.
func threadClock() time.Duration { return 0 }
