package api

import "net/http"

// Notifier is bound in app, which this package does not import.
type Notifier interface{ Notify(user string) }

// Signup fetches a hook (reported here, in this package) and then
// notifies through the interface: the query behind the binding app makes
// is reported once, at the interface call, not a second time at the
// handler's call.
type Signup struct{ N Notifier }

func (s *Signup) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.save(r.URL.Query().Get("user")) // finding: SIO001
}

// Export is served through app's own router type, which takes a handler
// of its own shape and registers a literal made from it.
func (s *Signup) Export(w http.ResponseWriter, r *http.Request) error {
	resp, err := http.Get("http://exports.internal/signups")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (s *Signup) save(user string) {
	resp, err := http.Get("http://hooks.internal/signup/" + user)
	if err == nil {
		resp.Body.Close()
	}
	s.N.Notify(user) // finding: SIO001
}
