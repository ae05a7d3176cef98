// Package before builds connection pools inside handlers: an http.Client
// with a new http.Transport, and an azblob client, on every request.
// syncio reports both as SIO004. See ../after for the fix.
package before
