// Package after is ../before with the clients built once at start-up and
// shared: a tuned http.Transport, an azblob client that uses the same
// http.Client and a bounded retry policy, and a database/sql pool sized
// with all four of its settings (ConfigurePool). syncio reports nothing.
package after
