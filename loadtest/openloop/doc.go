// Package openloop sends requests at a fixed arrival rate, whatever the
// service answers and however long it takes: vegeta's constant pacer. It
// is the open loop next to closedloop's users. Closed-loop users wait for
// each answer, so a slow service sees fewer arrivals and the queueing per
// user shows; an open loop keeps arriving, which is what an SLO test at
// a given request rate needs, and shows what that rate does to latency
// and errors.
package openloop
