package deadlinefix

import (
	"net"
	"net/http"
	"time"
)

var mux = http.NewServeMux()

func multiLine() *http.Server {
	return &http.Server{ // want `has no ReadHeaderTimeout and no IdleTimeout`
		Addr:    ":8080",
		Handler: mux,
	}
}

func oneLine() *http.Server {
	return &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second} // want `has no IdleTimeout`
}

func listen() error {
	return http.ListenAndServe(":8080", mux) // want `ListenAndServe serves with a server that has no timeouts`
}

func listenTLS() error {
	return http.ListenAndServeTLS(":8443", "cert.pem", "key.pem", nil) // want `ListenAndServeTLS serves with a server that has no timeouts`
}

func dialer() *net.Dialer {
	return &net.Dialer{} // want `net.Dialer\{\} has no Timeout`
}

func handlerLast() *http.Server {
	return &http.Server{Addr: ":8080", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { // want `has no ReadHeaderTimeout and no IdleTimeout`
		w.WriteHeader(http.StatusNoContent)
	})}
}

var _ = time.Second
