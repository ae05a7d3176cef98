// Package report holds a load run's summary (summary.json's schema) and
// writes it out as JSON, steps.csv, a terminal table and summary.md. It
// also rebuilds a summary from the vegeta result files of one or more
// result folders, which is how runs from several machines that attacked
// the same API are merged.
package report
