//go:build !linux

package service

import "os/exec"

// dieWithParent is Linux's parent-death signal; elsewhere a node outlives a killed test.
func dieWithParent(*exec.Cmd) {}
