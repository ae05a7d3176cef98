// Package pb stands in for older protoc-gen-go-grpc output, whose servers
// need not embed an Unimplemented*Server.
package pb

import (
	"context"

	"google.golang.org/grpc"
)

type GetRequest struct{ Key string }
type GetReply struct{ Value []byte }

type CacheServer interface {
	Get(context.Context, *GetRequest) (*GetReply, error)
	Watch(*GetRequest, Cache_WatchServer) error
}

type Cache_WatchServer interface {
	grpc.ServerStream
	Send(*GetReply) error
}

func RegisterCacheServer(s *grpc.Server, srv CacheServer) { s.RegisterService(nil, srv) }
