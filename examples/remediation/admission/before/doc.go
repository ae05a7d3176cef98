// Package before caps the requests in flight with a semaphore that
// queues: a request past the cap waits for a slot with no deadline and no
// way out when its client leaves, so under overload the queue, and the
// latency of everything in it, grows without bound while the bodies of the
// waiting requests stay unread. Nothing bounds the memory the admitted
// bodies take.
package before
