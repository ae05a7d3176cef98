package knowledge

import "sync"

// httpMethods are the values of a blocking row's request field, with the
// net/http constant the fix writes for each: the methods of the
// shortcuts whose argument lists the fix knows (url; url, contentType,
// body for POST).
var httpMethods = map[string]string{"GET": "http.MethodGet", "HEAD": "http.MethodHead", "POST": "http.MethodPost"}

// HTTPShortcuts returns the net/http calls whose fix rewrites the whole
// `resp, err := …` statement into NewRequestWithContext and Do, by key,
// with the http.Method constant to use: the blocking rows with a request
// field.
var HTTPShortcuts = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range builtin() {
		if r.Kind == KindBlocking && r.Request != "" {
			m[r.Key] = httpMethods[r.Request]
		}
	}
	return m
})
