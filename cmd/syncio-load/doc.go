// Command syncio-load is the load lab: it runs step-load scenarios of
// closed-loop users against the demo API (by default started as a child
// process of its own on loopback with the embedded profile fake, and the
// embedded blob fake in a second child, so that the API's RSS and CPU, read
// from its /metrics, are its own; -storage-child=false puts the blob fake
// inside the API child; -api in-process runs the API inside the lab;
// -target attacks a running one) and writes a results
// folder with summary.json, steps.csv, vegeta result files, charts, vegeta's
// HTML plot and summary.md. The default scenarios give two headlines: the
// profile lookup (sync vs async on a 2 s backend) and the blob upload (on
// the embedded storage model, -storage-*). -endpoint (or -targets, in
// vegeta's format) replaces the demo's table with your own service's
// endpoints: no API is started, the first is the headline's baseline and
// the second its candidate, and -metrics names a Prometheus endpoint to read
// queue length and busy workers from.
//
//	syncio-load [flags]            run a profile (see -h)
//	syncio-load report [-out DIR] DIR...
//	                               merge result folders from several
//	                               machines and redraw summary and charts
package main
