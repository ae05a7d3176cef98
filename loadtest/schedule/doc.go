// Package schedule turns a load profile (warm-up, user steps, settling and
// measured windows) into a concrete plan of timed steps.
//
// A step adds closed-loop users at its start, then lets the system settle
// before its measured window opens. Settling matters: a blocking (sync)
// endpoint only reaches steady latency about a minute after its queue fills,
// while an async one settles within seconds, so the top step can use a
// longer settle for blocking scenarios. Only results that complete inside a
// measured window count towards that step's figures.
package schedule
