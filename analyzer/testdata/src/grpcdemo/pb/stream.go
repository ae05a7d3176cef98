package pb

import "google.golang.org/grpc"

// Greeter_SayHellosServer is the older generated form: a named interface
// that embeds grpc.ServerStream.
type Greeter_SayHellosServer interface {
	Send(*HelloReply) error
	grpc.ServerStream
}

// Greeter_LotsOfGreetingsServer is the newer form: an alias of a generic
// stream interface.
type Greeter_LotsOfGreetingsServer = grpc.ClientStreamingServer[HelloRequest, HelloReply]
