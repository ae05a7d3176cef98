package after

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
)

// subscriberBuffer is how many events one client may fall behind before
// it loses some: the memory a slow client can hold is this many events.
const subscriberBuffer = 64

// Hub fans events out to the clients streaming them. Each subscriber has
// a bounded buffer of its own, and Publish never waits for one: an event
// that finds a buffer full is dropped for that subscriber alone, and
// counted. So a client that stops reading costs at most its buffer, and
// cannot stall the publisher, the lock, or the other subscribers.
type Hub struct {
	mu   sync.RWMutex
	subs map[*Sub]struct{}
}

// Sub is one subscriber. Its channel is closed by Unsubscribe.
type Sub struct {
	c       chan string
	dropped atomic.Int64
}

// C delivers the subscriber's events.
func (s *Sub) C() <-chan string { return s.c }

// Dropped is how many events found the subscriber's buffer full.
func (s *Sub) Dropped() int64 { return s.dropped.Load() }

// Subscribe adds a subscriber whose buffer holds buf events.
func (h *Hub) Subscribe(buf int) *Sub {
	s := &Sub{c: make(chan string, buf)}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs == nil {
		h.subs = map[*Sub]struct{}{}
	}
	h.subs[s] = struct{}{}
	return s
}

// Unsubscribe removes s and closes its channel. The lock here guards the
// channel's lifetime, not only the map: Publish sends while it holds the
// lock, so a channel is never closed between Publish finding it and
// sending on it. Narrowing Publish to "copy the subscribers under the
// lock, send after Unlock" would let this close run in that gap, and the
// send would panic on a closed channel.
func (h *Hub) Unsubscribe(s *Sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[s]; ok {
		delete(h.subs, s)
		close(s.c)
	}
}

// Publish hands ev to every subscriber with room for it. Holding the lock
// across the sends is safe because none of them waits: a full buffer takes
// the default case.
func (h *Hub) Publish(ev string) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for s := range h.subs {
		select {
		case s.c <- ev:
		default:
			s.dropped.Add(1)
		}
	}
}

// Post publishes one event.
func (h *Hub) Post(w http.ResponseWriter, r *http.Request) {
	h.Publish(r.FormValue("event"))
	w.WriteHeader(http.StatusNoContent)
}

// Events streams events to one client until it leaves. A client that
// reads slowly blocks only this goroutine's writes (bound them with the
// server's write deadline); the hub drops what its buffer cannot hold.
func (h *Hub) Events(w http.ResponseWriter, r *http.Request) {
	s := h.Subscribe(subscriberBuffer)
	defer h.Unsubscribe(s)
	w.Header().Set("Content-Type", "text/event-stream")
	rc := http.NewResponseController(w)
	// Send the headers now: the client's request returns only when they
	// arrive, which would otherwise wait for the first event.
	w.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil {
		return
	}
	for {
		select {
		case ev := <-s.C():
			if _, err := fmt.Fprintf(w, "data: %s\n\n", ev); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}
