//go:build !unix

package pantropia

// cpuNanos is unknown here; benchmarks then report no CPU time.
func cpuNanos() int64 { return 0 }
