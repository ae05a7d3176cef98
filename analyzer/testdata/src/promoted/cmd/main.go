package main

import (
	"net/http"

	"promoted/rpc"
)

func version(w http.ResponseWriter, r *http.Request) {
	c := rpc.New("http://localhost:6800/jsonrpc")
	v, _ := c.GetVersion() // reports: `^version calls c.GetVersion \(rpc.Client, bound to \*rpc.client in rpc.New\) → rpc.\(\*client\).GetVersion → c.Call \(rpc.caller, bound to rpc.httpCaller in rpc.New\) → rpc.httpCaller.Call → net/http.\(\*Client\).Post, which blocks`
	_, _ = w.Write([]byte(v))
}

func versionNamed(w http.ResponseWriter, r *http.Request) {
	v, _ := rpc.NewNamed("http://localhost:6800/jsonrpc").GetVersion() // reports: `^versionNamed calls rpc.\(\*named\).GetVersion → n.cl.Call \(rpc.caller, bound to rpc.httpCaller in rpc.New(Named)?\) → rpc.httpCaller.Call → net/http.\(\*Client\).Post, which blocks`
	_, _ = w.Write([]byte(v))
}

// local's embedded interface is bound only to memCaller: silent.
func versionLocal(w http.ResponseWriter, r *http.Request) {
	v, _ := rpc.NewLocal().GetVersion()
	_, _ = w.Write([]byte(v))
}

func main() {
	http.HandleFunc("/v", version)
	http.HandleFunc("/n", versionNamed)
	http.HandleFunc("/l", versionLocal)
	//syncio:ignore SIO008 -- a fixture's main: what it tests is behind the handler, not the server
	_ = http.ListenAndServe(":8080", nil)
}
