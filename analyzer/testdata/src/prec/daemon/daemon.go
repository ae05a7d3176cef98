// Package daemon covers exec.Command starting a detached daemon (precision
// class 2 of issue 10): cmd.Start() then cmd.Process.Release(), or
// cmd.SysProcAttr with Setsid: true, is silent, since exec.CommandContext
// with the request's context would kill the daemon when the request ends.
// A command the request waits for, or one only started, is still SIO001.
package daemon

import (
	"net/http"
	"os/exec"
	"syscall"
)

func Released(w http.ResponseWriter, r *http.Request) {
	cmd := exec.Command("worker", "--serve")
	if err := cmd.Start(); err != nil {
		return
	}
	_ = cmd.Process.Release()
}

func Setsid(w http.ResponseWriter, r *http.Request) {
	cmd := exec.Command("worker", "--serve")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	_ = cmd.Start()
}

func SetsidField(w http.ResponseWriter, r *http.Request) {
	cmd := exec.Command("worker", "--serve")
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	cmd.SysProcAttr.Setsid = true
	_ = cmd.Start()
}

// spawn detaches in a helper: nothing to propagate.
func spawn(name string) error {
	cmd := exec.Command(name)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

func Spawn(w http.ResponseWriter, r *http.Request) { _ = spawn("worker") }

// Started is only started: its lifetime is unknown, as today.
func Started(w http.ResponseWriter, r *http.Request) {
	cmd := exec.Command("worker") // want `os/exec.Command starts a process the request cannot cancel`
	_ = cmd.Start()
}

// Waited: Setsid, but the request waits for it.
func Waited(w http.ResponseWriter, r *http.Request) {
	cmd := exec.Command("convert", "a.png", "b.jpg") // want `os/exec.Command starts a process`
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	_ = cmd.Run()
}

// NoSetsid: a SysProcAttr without Setsid, and Release on another command.
func NoSetsid(w http.ResponseWriter, r *http.Request) {
	a := exec.Command("a") // want `os/exec.Command starts`
	a.SysProcAttr = &syscall.SysProcAttr{Setsid: false}
	_ = a.Start()
	b := exec.Command("b") // want `os/exec.Command starts`
	_ = b.Start()
	c := exec.Command("c")
	_ = c.Start()
	_ = c.Process.Release()
}

// Inline has no variable to follow.
func Inline(w http.ResponseWriter, r *http.Request) {
	_ = exec.Command("ls").Run() // want `os/exec.Command starts`
}
