// Package after is ../before with the visit record detached on purpose
// and bounded: a fixed number of workers take records from a bounded
// queue, each under context.WithoutCancel plus a deadline of its own; a
// full queue drops the record and counts it; and Shutdown stops the
// server, then drains the queue within the same deadline, cutting and
// reporting what is left when it passes.
package after
