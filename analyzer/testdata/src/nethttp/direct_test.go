package main

import (
	"net/http"
	"testing"
	"time"
)

func handlerInTest(w http.ResponseWriter, r *http.Request) {
	time.Sleep(time.Second) // test files are never request paths
}

func TestX(t *testing.T) { _ = fetch("x") }
