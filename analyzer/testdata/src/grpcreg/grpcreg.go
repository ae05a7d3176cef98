// want package:`convs\(1\)`
// Package grpcreg registers a server that embeds no Unimplemented*Server:
// the registration call makes its service methods request roots.
package grpcreg

import (
	"context"
	"net/http"
	"time"

	"google.golang.org/grpc"
	"grpcreg/pb"
)

type server struct{}

func (s *server) Get(ctx context.Context, req *pb.GetRequest) (*pb.GetReply, error) {
	_, err := http.Get("http://backend/" + req.Key) // want `^net/http.Get blocks`
	return &pb.GetReply{}, err
}

func (s *server) Watch(req *pb.GetRequest, stream pb.Cache_WatchServer) error {
	time.Sleep(time.Second) // want `^time.Sleep waits`
	return nil
}

// helper is a method of the same type outside the service interface: not
// a root; it only exports its fact.
func (s *server) helper() { // want helper:`blocks\(SIO005`
	time.Sleep(time.Second)
}

func Serve() {
	g := grpc.NewServer()
	pb.RegisterCacheServer(g, &server{})
}
