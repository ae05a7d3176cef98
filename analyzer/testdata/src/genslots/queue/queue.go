// Package queue keeps tasks in a field of a generic struct
// (Task[T].Do) that the program instantiates twice: Queue[string]'s
// tasks run on requests, Queue[int]'s only at shutdown.
package queue

import "net/http"

type Task[T any] struct{ Do func(T) error }

type Queue[T any] struct{ tasks []*Task[T] }

func (q *Queue[T]) Add(do func(T) error) { q.tasks = append(q.tasks, &Task[T]{Do: do}) }

// Tasks returns the queue's tasks.
func (q *Queue[T]) Tasks() []*Task[T] { return q.tasks }

// Handler runs every task on a request. The call through Task[T].Do is
// in generic code: the program stores functions of two types there
// (func(string) error and func(int) error), and which instantiation this
// literal serves is not known here, so neither is followed: silent.
func (q *Queue[T]) Handler(arg T) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for _, t := range q.tasks {
			_ = t.Do(arg)
		}
	}
}

// Drain runs the tasks at shutdown, off any request path.
func (q *Queue[T]) Drain(arg T) {
	for _, t := range q.tasks {
		_ = t.Do(arg)
	}
}
