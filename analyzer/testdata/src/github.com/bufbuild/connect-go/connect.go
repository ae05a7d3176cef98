// Package connect is a minimal stand-in for github.com/bufbuild/connect-go: the request,
// response and stream types of handlers.
package connect

import (
	"context"
	"net/http"
)

type Request[T any] struct{ Msg *T }

type Response[T any] struct{ Msg *T }

func NewResponse[T any](message *T) *Response[T] { return &Response[T]{Msg: message} }

type ClientStream[T any] struct{}

func (c *ClientStream[T]) Receive() bool { return false }
func (c *ClientStream[T]) Msg() *T       { return nil }

type ServerStream[T any] struct{}

func (s *ServerStream[T]) Send(msg *T) error { return nil }

type BidiStream[Req, Res any] struct{}

func (b *BidiStream[Req, Res]) Receive() (*Req, error) { return nil, nil }
func (b *BidiStream[Req, Res]) Send(msg *Res) error    { return nil }

type HandlerOption interface{}

func NewUnaryHandler[Req, Res any](
	procedure string,
	unary func(context.Context, *Request[Req]) (*Response[Res], error),
	options ...HandlerOption,
) http.Handler {
	return nil
}
