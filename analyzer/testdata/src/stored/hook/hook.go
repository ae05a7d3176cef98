// Package hook chains handlers kept in struct fields, as a generic event
// hook does: Trigger copies the handlers' Func fields and the one-off
// handlers it is given into a slice, and chains them through closures
// handed to the event and run by its Next.
package hook

// Resolver is what an event of a hook can do.
type Resolver interface {
	Next() error
	setNext(f func() error)
}

// Event is the base of every event: it keeps the next handler.
type Event struct{ next func() error }

func (e *Event) Next() error {
	if e.next != nil {
		return e.next()
	}
	return nil
}

func (e *Event) setNext(f func() error) { e.next = f }

// Handler keeps a middleware in its Func field.
type Handler[T Resolver] struct {
	Func func(T) error
	ID   string
}

type Hook[T Resolver] struct{ handlers []*Handler[T] }

func (h *Hook[T]) Bind(handler *Handler[T]) { h.handlers = append(h.handlers, handler) }

// Trigger runs the bound handlers, then the one-off ones.
func (h *Hook[T]) Trigger(event T, oneOff ...func(T) error) error {
	handlers := make([]func(T) error, 0, len(h.handlers)+len(oneOff))
	for _, handler := range h.handlers {
		handlers = append(handlers, handler.Func)
	}
	handlers = append(handlers, oneOff...)
	event.setNext(nil)
	for i := len(handlers) - 1; i >= 0; i-- {
		event.setNext(func() error { return handlers[i](event) })
	}
	return event.Next()
}
