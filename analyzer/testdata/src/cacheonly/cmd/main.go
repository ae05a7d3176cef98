package main

import (
	"net/http"

	"cacheonly/app"
	"cacheonly/data"
	"cacheonly/repo"
	"cacheonly/svc"
)

func main() {
	app.Svc = &svc.Service{Repo: &repo.Repo{Cache: data.NewCache()}}
	http.HandleFunc("/me", app.Me)
	//syncio:ignore SIO008 -- a fixture's main: what it tests is behind the handler, not the server
	_ = http.ListenAndServe(":8080", nil)
}
