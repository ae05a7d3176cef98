// Package pb stands in for protoc-gen-go-grpc output.
package pb

type HelloRequest struct{ Name string }
type HelloReply struct{ Message string }

type UnimplementedGreeterServer struct{}
