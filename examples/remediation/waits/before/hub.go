package before

import (
	"fmt"
	"net/http"
	"sync"
)

// Hub fans events out to the clients streaming them.
type Hub struct {
	mu   sync.Mutex
	subs map[chan string]struct{}
}

// Post sends the event to every subscriber while holding mu: one client
// that stops reading fills its channel, the send waits for it for ever,
// and every later Post, and every client subscribing or leaving, queues
// behind the lock.
func (h *Hub) Post(w http.ResponseWriter, r *http.Request) {
	ev := r.FormValue("event")
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.subs {
		c <- ev // syncio: SIO003 SIO005
	}
	w.WriteHeader(http.StatusNoContent)
}

// Events streams events to one client.
func (h *Hub) Events(w http.ResponseWriter, r *http.Request) {
	c := make(chan string, 16)
	h.mu.Lock()
	if h.subs == nil {
		h.subs = map[chan string]struct{}{}
	}
	h.subs[c] = struct{}{}
	h.mu.Unlock()
	for ev := range c { // syncio: SIO005
		if _, err := fmt.Fprintf(w, "data: %s\n\n", ev); err != nil {
			return // and c stays subscribed: the next Post blocks on it once it is full
		}
	}
}
