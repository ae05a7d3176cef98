//go:build race

package api

// raceEnabled: the race detector allows at most 8128 live goroutines, so
// tests with thousands of concurrent clients scale down under it.
const raceEnabled = true
