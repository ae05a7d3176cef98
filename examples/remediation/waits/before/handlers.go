package before

import (
	"net/http"
	"time"
)

// Jobs hands out queued jobs and pings a flaky downstream service.
type Jobs struct {
	Queue chan string
	Ping  func() error
}

// retry calls fn up to attempts times, doubling the pause each time.
func retry(attempts int, pause time.Duration, fn func() error) error {
	var err error
	for range attempts {
		if err = fn(); err == nil {
			return nil
		}
		time.Sleep(pause)
		pause *= 2
	}
	return err
}

// Health keeps sleeping between attempts after the client has gone.
func (j *Jobs) Health(w http.ResponseWriter, r *http.Request) {
	if err := retry(5, 100*time.Millisecond, j.Ping); err != nil { // syncio: SIO005
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Next waits for a job for as long as it takes, even for nobody.
func (j *Jobs) Next(w http.ResponseWriter, r *http.Request) {
	job := <-j.Queue // syncio: SIO005
	_, _ = w.Write([]byte(job))
}
