// want package:`rootslots\(1\)` package:`pending\(1\)` package:`joined\(256\)`
// Package app is a settings handler that picks one of many actions: from
// the package map that two packages below fill with 260 (more than the
// join follows per call: the roots report names the call as followed in
// part), and from a switch over 23 functions kept in a local (each
// followed; eight were, before).
package app

import (
	"net/http"
	"time"

	_ "manyactions/first"
	_ "manyactions/second"
	"manyactions/table"
)

// Settings runs the action the form names.
func Settings(w http.ResponseWriter, r *http.Request) {
	table.Actions[r.FormValue("a")](w) // want `first.a3 → time.Sleep at first.go:\d+:\d+, and 252 more`
}

// Switch runs the action the form names, chosen by a switch.
func Switch(w http.ResponseWriter, r *http.Request) {
	var act func(http.ResponseWriter)
	switch r.FormValue("a") {
	case "s0":
		act = s0
	case "s1":
		act = s1
	case "s2":
		act = s2
	case "s3":
		act = s3
	case "s4":
		act = s4
	case "s5":
		act = s5
	case "s6":
		act = s6
	case "s7":
		act = s7
	case "s8":
		act = s8
	case "s9":
		act = s9
	case "s10":
		act = s10
	case "s11":
		act = s11
	case "s12":
		act = s12
	case "s13":
		act = s13
	case "s14":
		act = s14
	case "s15":
		act = s15
	case "s16":
		act = s16
	case "s17":
		act = s17
	case "s18":
		act = s18
	case "s19":
		act = s19
	case "s20":
		act = s20
	case "s21":
		act = s21
	case "s22":
		act = s22
	default:
		return
	}
	act(w) // want `also reaches app.s1 → time.Sleep at app.go:\d+:\d+, app.s2 → time.Sleep at app.go:\d+:\d+, app.s3 → time.Sleep at app.go:\d+:\d+, and 19 more`
}

func s0(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want s0:`blocks\(SIO005: time.Sleep\)`
func s1(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want s1:`blocks\(SIO005: time.Sleep\)`
func s2(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want s2:`blocks\(SIO005: time.Sleep\)`
func s3(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want s3:`blocks\(SIO005: time.Sleep\)`
func s4(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want s4:`blocks\(SIO005: time.Sleep\)`
func s5(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want s5:`blocks\(SIO005: time.Sleep\)`
func s6(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want s6:`blocks\(SIO005: time.Sleep\)`
func s7(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want s7:`blocks\(SIO005: time.Sleep\)`
func s8(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want s8:`blocks\(SIO005: time.Sleep\)`
func s9(w http.ResponseWriter)  { time.Sleep(time.Millisecond) } // want s9:`blocks\(SIO005: time.Sleep\)`
func s10(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s10:`blocks\(SIO005: time.Sleep\)`
func s11(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s11:`blocks\(SIO005: time.Sleep\)`
func s12(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s12:`blocks\(SIO005: time.Sleep\)`
func s13(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s13:`blocks\(SIO005: time.Sleep\)`
func s14(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s14:`blocks\(SIO005: time.Sleep\)`
func s15(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s15:`blocks\(SIO005: time.Sleep\)`
func s16(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s16:`blocks\(SIO005: time.Sleep\)`
func s17(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s17:`blocks\(SIO005: time.Sleep\)`
func s18(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s18:`blocks\(SIO005: time.Sleep\)`
func s19(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s19:`blocks\(SIO005: time.Sleep\)`
func s20(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s20:`blocks\(SIO005: time.Sleep\)`
func s21(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s21:`blocks\(SIO005: time.Sleep\)`
func s22(w http.ResponseWriter) { time.Sleep(time.Millisecond) } // want s22:`blocks\(SIO005: time.Sleep\)`
