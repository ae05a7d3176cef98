// Package chain runs handlers as a chain of closures: Trigger puts the
// one-off handlers it is given into a local slice and hands the event a
// closure per handler, which the event's Next runs.
package chain

// Resolver is what an event of a chain can do.
type Resolver interface {
	Next() error
	setNext(f func() error)
	next() func() error
}

// Event is the base of every event: it keeps the next handler.
type Event struct{ nextFunc func() error }

func (e *Event) Next() error {
	if e.nextFunc != nil {
		return e.nextFunc()
	}
	return nil
}

func (e *Event) setNext(f func() error) { e.nextFunc = f }

func (e *Event) next() func() error { return e.nextFunc }

type Hook[T Resolver] struct{}

// Trigger runs the one-off handlers in turn, each through the event.
func (h *Hook[T]) Trigger(event T, oneOff ...func(T) error) error {
	handlers := make([]func(T) error, 0, len(oneOff))
	handlers = append(handlers, oneOff...)
	event.setNext(nil)
	for i := len(handlers) - 1; i >= 0; i-- {
		old := event.next()
		event.setNext(func() error {
			event.setNext(old)
			return handlers[i](event)
		})
	}
	return event.Next()
}
