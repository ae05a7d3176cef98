// Command syncio-load is the load lab: it runs step-load scenarios of
// closed-loop users against the demo API (started in-process on loopback
// with embedded fakes by default, or a running one with -target) and
// writes a results folder with summary.json, steps.csv, vegeta result
// files, charts, vegeta's HTML plot and summary.md.
//
//	syncio-load [flags]            run a profile (see -h)
//	syncio-load report [-out DIR] DIR...
//	                               merge result folders from several
//	                               machines and redraw summary and charts
package main
