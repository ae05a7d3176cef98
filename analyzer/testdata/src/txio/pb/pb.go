// Package pb reduces a generated gRPC client.
package pb

import (
	"context"

	"google.golang.org/grpc"
)

type ChargeRequest struct{ OrderID string }

type ChargeReply struct{}

// PaymentsClient is the generated client interface.
type PaymentsClient interface {
	Charge(ctx context.Context, in *ChargeRequest, opts ...grpc.CallOption) (*ChargeReply, error)
}
