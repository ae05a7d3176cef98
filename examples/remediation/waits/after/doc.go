// Package after is ../before with every wait in a select on the request's
// context: a timer for the retry pause, and the channel receive next to
// ctx.Done(). syncio reports nothing.
package after
