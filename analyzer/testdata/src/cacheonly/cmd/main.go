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
	_ = http.ListenAndServe(":8080", nil)
}
