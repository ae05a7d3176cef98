// Package after is ../before with the clients built once at start-up and
// shared: a tuned http.Transport, and an azblob client that uses the same
// http.Client and a bounded retry policy. syncio reports nothing.
package after
