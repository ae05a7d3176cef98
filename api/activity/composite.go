package activity

import "context"

type sequence struct {
	base
	kids []Activity
}

// Sequence runs its activities one after the other and stops at the first
// failure.
func Sequence(name string, activities ...Activity) Activity {
	return &sequence{base: base{name: name}, kids: activities}
}

func (s *sequence) children() []Activity { return s.kids }

func (s *sequence) execute(r *run, e *Env, ctx context.Context, k cont) {
	i := 0
	var next cont
	next = func(err error) {
		if err != nil || i == len(s.kids) {
			r.done(s, err, k)
			return
		}
		c := s.kids[i]
		i++
		r.schedule(c, e, ctx, next)
	}
	next(nil)
}

type parallel struct {
	base
	kids []Activity
}

// Parallel starts all its branches at once. The run stays single-threaded,
// so branches interleave on the one worker, but their async I/O overlaps.
// The first failure cancels the other branches (through their context) and
// Parallel completes, with that first error, once every branch has ended.
func Parallel(name string, branches ...Activity) Activity {
	return &parallel{base: base{name: name}, kids: branches}
}

func (p *parallel) children() []Activity { return p.kids }

func (p *parallel) execute(r *run, e *Env, ctx context.Context, k cont) {
	if len(p.kids) == 0 {
		r.done(p, nil, k)
		return
	}
	join := r.joiner(p, len(p.kids), ctx, k)
	for _, c := range p.kids {
		r.schedule(c, e, join.ctx, join.done)
	}
}

// joiner counts down parallel branches; the first error cancels the rest.
type joiner struct {
	ctx    context.Context
	cancel context.CancelFunc
	left   int
	first  error
	done   cont
}

func (r *run) joiner(a Activity, n int, ctx context.Context, k cont) *joiner {
	j := &joiner{left: n}
	j.ctx, j.cancel = context.WithCancel(ctx)
	j.done = func(err error) {
		if err != nil && j.first == nil {
			j.first = err
			j.cancel()
		}
		j.left--
		if j.left == 0 {
			j.cancel()
			r.done(a, j.first, k)
		}
	}
	return j
}

type forEach[T any] struct {
	base
	items Arg[[]T]
	scope *Scope
	item  Var[T]
	body  Activity
}

// ParallelForEach runs body once per element of items, all branches at once
// as in Parallel. build is called once, at build time, with the per-item
// scope (declare per-branch variables there) and the item variable; each
// branch of a run gets its own Env for that scope.
func ParallelForEach[T any](name string, items Arg[[]T], build func(s *Scope, item Var[T]) Activity) Activity {
	s := &Scope{}
	item := Declare[T](s, "item")
	return &forEach[T]{base: base{name: name}, items: items, scope: s, item: item, body: build(s, item)}
}

func (f *forEach[T]) children() []Activity { return []Activity{f.body} }

func (f *forEach[T]) execute(r *run, e *Env, ctx context.Context, k cont) {
	items := f.items.Get(e)
	if len(items) == 0 {
		r.done(f, nil, k)
		return
	}
	join := r.joiner(f, len(items), ctx, k)
	for _, it := range items {
		ce := newEnv(f.scope, e)
		f.item.Set(ce, it)
		r.schedule(f.body, ce, join.ctx, join.done)
	}
}

type while struct {
	base
	cond Arg[bool]
	body Activity
}

// While runs body as long as cond is true, checking cond before each pass.
func While(name string, cond Arg[bool], body Activity) Activity {
	return &while{base: base{name: name}, cond: cond, body: body}
}

func (w *while) children() []Activity { return []Activity{w.body} }

func (w *while) execute(r *run, e *Env, ctx context.Context, k cont) {
	var loop cont
	loop = func(err error) {
		if err != nil || !w.cond.Get(e) {
			r.done(w, err, k)
			return
		}
		r.schedule(w.body, e, ctx, loop)
	}
	loop(nil)
}

type ifElse struct {
	base
	cond       Arg[bool]
	then, elze Activity
}

// If runs then when cond is true and otherwise elze, which may be nil.
func If(name string, cond Arg[bool], then, elze Activity) Activity {
	return &ifElse{base: base{name: name}, cond: cond, then: then, elze: elze}
}

func (i *ifElse) children() []Activity {
	if i.elze == nil {
		return []Activity{i.then}
	}
	return []Activity{i.then, i.elze}
}

func (i *ifElse) execute(r *run, e *Env, ctx context.Context, k cont) {
	branch := i.elze
	if i.cond.Get(e) {
		branch = i.then
	}
	if branch == nil {
		r.done(i, nil, k)
		return
	}
	r.schedule(branch, e, ctx, func(err error) { r.done(i, err, k) })
}

type compensable struct {
	base
	body, comp Activity
}

// Compensable runs body; once body has completed, compensation is
// registered with the run. If the workflow later faults, the registered
// compensations run in reverse order of registration (last done, first
// undone) before Run returns the fault. Compensations run even when the
// run's context has ended, so they must bound their own waiting.
func Compensable(name string, body, compensation Activity) Activity {
	return &compensable{base: base{name: name}, body: body, comp: compensation}
}

func (c *compensable) children() []Activity { return []Activity{c.body, c.comp} }

func (c *compensable) execute(r *run, e *Env, ctx context.Context, k cont) {
	r.schedule(c.body, e, ctx, func(err error) {
		if err == nil {
			r.comps = append(r.comps, pendingComp{act: c.comp, env: e})
		}
		r.done(c, err, k)
	})
}
