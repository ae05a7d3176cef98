package activity

import (
	"context"
	"fmt"
)

// Activity is a node of a workflow template. Values are built by the
// constructors in this package (Code, Async, Sequence, ...) and are immutable
// once a workflow is built from them. An Activity value belongs to one place
// in one workflow: New panics if it finds the same value twice, because the
// activity's path (used in errors and tracking) is fixed at build time.
type Activity interface {
	// Name is the activity's own name; its path is the names from the root.
	Name() string
	node() *base
	children() []Activity
	execute(r *run, e *Env, ctx context.Context, k cont)
}

// cont is what an activity calls exactly once when it completes.
type cont func(error)

type base struct {
	name string
	path string // set once by New; read-only afterwards
	id   uint32 // index of path in its workflow's origin.paths, from 1; set by New
}

func (b *base) Name() string { return b.name }
func (b *base) node() *base  { return b }

// Error is a failure of an activity, carrying the activity's path. The first
// failing activity wraps the cause; composites pass it up unchanged.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap exposes the cause to errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// Fault returns the failure that faulted a run, without the errors of the
// compensations that ran after it: Run and RunOn join those to the fault,
// the fault first (errors.Join, once per failed compensation). Report the
// fault to whoever asked for the run; a compensation's error is about
// undoing it, not about the step that failed, and belongs in a log. Any
// other error is returned as it is.
func Fault(err error) error {
	for {
		j, ok := err.(interface{ Unwrap() []error })
		if !ok {
			return err
		}
		errs := j.Unwrap()
		if len(errs) == 0 {
			return err
		}
		err = errs[0]
	}
}

// assignPaths fixes every activity's path below root and numbers it: a
// tracking record names its activity by that number, and paths[id] turns it
// back into the path. Paths are computed once here so that errors and
// tracking events cost no string building per run.
func assignPaths(a Activity, prefix string, seen map[*base]bool, paths *[]string) {
	b := a.node()
	if seen[b] || b.path != "" {
		panic(fmt.Sprintf("activity: %q is used twice; build a new activity for each place", b.name))
	}
	seen[b] = true
	b.path = b.name
	if prefix != "" {
		b.path = prefix + "/" + b.name
	}
	b.id = uint32(len(*paths))
	*paths = append(*paths, b.path)
	for _, c := range a.children() {
		assignPaths(c, b.path, seen, paths)
	}
}
