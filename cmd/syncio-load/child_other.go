//go:build !unix

package main

import "syscall"

func childProcAttr() *syscall.SysProcAttr { return nil }
