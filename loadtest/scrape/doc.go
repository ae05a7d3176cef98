// Package scrape samples the demo API's Prometheus /metrics once a second:
// pool queue length, busy workers, rejections, and the process's RSS and
// goroutines, so each load step can report what the server was doing.
package scrape
