//go:build unix

package main

import "syscall"

// childProcAttr puts the API child in its own process group, so a Ctrl-C
// at the terminal reaches only the lab, which then writes its results and
// stops the child itself.
func childProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
