package after

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestSlowSubscriberCannotBlockPublisher: one subscriber reads every event,
// the other never reads. Publish returns every time (in a synctest bubble
// a publisher blocked for ever would end the test with a deadlock panic),
// the fast subscriber gets all 100 events, and the slow one holds exactly
// its buffer, with the rest dropped and counted.
func TestSlowSubscriberCannotBlockPublisher(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var h Hub
		fast, slow := h.Subscribe(1), h.Subscribe(4)
		var got []string
		done := make(chan struct{})
		go func() {
			defer close(done)
			for ev := range fast.C() {
				got = append(got, ev)
			}
		}()
		for i := range 100 {
			h.Publish(fmt.Sprint(i))
			synctest.Wait() // the fast reader has taken it
		}
		h.Unsubscribe(fast)
		<-done
		if len(got) != 100 || fast.Dropped() != 0 {
			t.Errorf("fast subscriber got %d events, dropped %d; want 100 and 0", len(got), fast.Dropped())
		}
		if n, c := len(slow.C()), cap(slow.C()); n != 4 || c != 4 {
			t.Errorf("slow subscriber holds %d events (capacity %d); want its buffer of 4", n, c)
		}
		if d := slow.Dropped(); d != 96 {
			t.Errorf("slow subscriber dropped %d; want 96", d)
		}
	})
}

// TestUnsubscribeWhilePublishing: subscribers come and go while events
// are published. Unsubscribe closes the channel under the lock Publish
// sends under, so no send meets a closed channel. Run with -race: with
// the sends narrowed out of the lock (copy the subscribers, unlock, send)
// this panics with "send on closed channel" within a few hundred rounds.
func TestUnsubscribeWhilePublishing(t *testing.T) {
	var h Hub
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					h.Publish("x")
				}
			}
		})
	}
	for range 2000 {
		s := h.Subscribe(1)
		h.Unsubscribe(s)
		if _, open := <-s.C(); open {
			// At most one buffered event, then closed.
			if _, open := <-s.C(); open {
				t.Fatal("channel still open after Unsubscribe")
			}
		}
	}
	close(stop)
	wg.Wait()
}

// TestNarrowedSendsPanic shows the hazard that Unsubscribe's comment
// names, on that interleaving made deterministic: the subscribers are
// copied under the lock, the lock is released, one is closed by
// Unsubscribe, and the send after Unlock panics.
func TestNarrowedSendsPanic(t *testing.T) {
	var h Hub
	s := h.Subscribe(1)
	h.mu.RLock()
	snapshot := make([]*Sub, 0, len(h.subs))
	for sub := range h.subs {
		snapshot = append(snapshot, sub)
	}
	h.mu.RUnlock()
	h.Unsubscribe(s) // runs in the gap the narrowing opened
	defer func() {
		if recover() == nil {
			t.Error("a send on a subscriber closed after the snapshot did not panic")
		}
	}()
	for _, sub := range snapshot {
		select {
		case sub.c <- "x":
		default:
		}
	}
}

// subscribers is how many subscribers h has.
func (h *Hub) subscribers() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.subs)
}

// waitFor polls cond; the bound only turns a hang into a failure.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestEventsStreamsAndUnsubscribes: a client of Events receives a
// published event as a server-sent event, and when it leaves, its handler
// returns and unsubscribes, so the hub holds nothing for it.
func TestEventsStreamsAndUnsubscribes(t *testing.T) {
	var h Hub
	srv := httptest.NewServer(http.HandlerFunc(h.Events))
	defer srv.Close()
	ctx, leave := context.WithCancel(context.Background())
	defer leave()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	waitFor(t, "the client to subscribe", func() bool { return h.subscribers() == 1 })
	h.Publish("hello")
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != "data: hello\n" {
		t.Fatalf("read %q, %v; want the event", line, err)
	}
	leave()
	waitFor(t, "the handler to unsubscribe", func() bool { return h.subscribers() == 0 })
}
