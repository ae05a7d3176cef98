// Package loadtest runs the syncio load lab: step-load scenarios of
// closed-loop users against the demo API, sync against async, measured per
// step and written out as summary.json, steps.csv, vegeta result files,
// charts and summary.md.
//
// The pieces live in subpackages by purpose: schedule (profiles and timed
// steps), closedloop (the users), scrape (the API's /metrics), aggregate
// (windows and percentiles), report (summary, tables, merging), charts
// (PNG/SVG) and limits (file descriptors and ports). This package holds
// the scenario table and the runner that ties them together.
package loadtest
