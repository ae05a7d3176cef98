module thirdparty

go 1.26

require (
	github.com/gomodule/redigo v1.9.2
	example.com/lib v0.0.0
	golang.org/x/sync v0.0.0
)
