package main

import (
	"database/sql"
	"net/http"

	"cacheonly/appsql"
	"cacheonly/repo"
	"cacheonly/sqlcache"
	"cacheonly/svc"
)

func main() {
	db, _ := sql.Open("postgres", "")
	appsql.Svc = &svc.Service{Repo: &repo.Repo{Cache: &sqlcache.Cache{DB: db}}}
	http.HandleFunc("/me", appsql.Me)
	//syncio:ignore SIO008 -- a fixture's main: what it tests is behind the handler, not the server
	_ = http.ListenAndServe(":8080", nil)
}
