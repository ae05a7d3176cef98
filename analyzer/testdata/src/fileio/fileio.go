// Package fileio is analysed with SIO006 (opt-in) enabled.
package fileio

import (
	"io"
	"net/http"
	"os"
	"strings"
)

func Serve(w http.ResponseWriter, r *http.Request) {
	b, _ := os.ReadFile("page.html") // want `^os.ReadFile does file I/O on the request path: it blocks an OS thread.*\(SIO006\)$`
	_, _ = w.Write(b)
	f, _ := os.Open("big.bin") // want `os.Open does file I/O`
	_, _ = io.Copy(w, f)       // want `io.Copy does file I/O`
	buf := make([]byte, 8)
	_, _ = f.Read(buf)                        // want `os.\(\*File\).Read does file I/O`
	_, _ = io.Copy(w, strings.NewReader("x")) // no file operand: fine
	_ = os.WriteFile("out", b, 0o600)         // want `os.WriteFile does file I/O`
	_ = save(b)                               // want `^Serve calls fileio.save → os.Create, which does file I/O.*; also reaches fileio.save → os.\(\*File\).Write at fileio.go:28:11 \(SIO006\)$`
}

func save(b []byte) error { // want save:`^blocks\(SIO006: os.Create\) \+ blocks\(SIO006: os.\(\*File\).Write\)$`
	f, err := os.Create("x")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	return err
}
