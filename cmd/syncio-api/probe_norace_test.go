//go:build !race

package main

// rssScale multiplies the probes' RSS bounds: 1 for a plain build (see
// probe_race_test.go).
const rssScale = 1
