package service

import (
	"os/exec"
	"syscall"
)

// dieWithParent kills a node process when the test process dies (a test timeout, a kill), so
// that no node outlives its test.
func dieWithParent(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }
