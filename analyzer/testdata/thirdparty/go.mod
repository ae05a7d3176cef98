module thirdparty

go 1.26

require (
	example.com/lib v0.0.0
	golang.org/x/sync v0.0.0
)
