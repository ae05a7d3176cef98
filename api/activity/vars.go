package activity

// Scope declares the variables of one level of a workflow at build time.
// Every run allocates one Env per scope instance, so a variable's value is
// per-run state while its declaration stays in the shared template.
type Scope struct {
	names []string
}

// Declare adds a variable of type T to s. Declare all variables while
// building the workflow: a scope's size is read when a run creates its Env.
func Declare[T any](s *Scope, name string) Var[T] {
	s.names = append(s.names, name)
	return Var[T]{scope: s, idx: len(s.names) - 1, name: name}
}

// Env holds one run's values for one scope. Nested scopes (the per-item
// scope of ParallelForEach) chain to their parent so inner activities can
// still read outer variables.
type Env struct {
	scope  *Scope
	parent *Env
	slots  []any // each slot holds a *T once set, so Set does not allocate per write
}

func newEnv(s *Scope, parent *Env) *Env {
	return &Env{scope: s, parent: parent, slots: make([]any, len(s.names))}
}

func (e *Env) find(s *Scope, name string) *Env {
	for x := e; x != nil; x = x.parent {
		if x.scope == s {
			return x
		}
	}
	panic("activity: variable " + name + " used outside the scope that declared it")
}

// Arg is an in-argument: a value an activity reads from the run's
// environment when it starts.
type Arg[T any] interface {
	Get(e *Env) T
}

// Out is an out-argument: where an activity writes its result.
type Out[T any] interface {
	Set(e *Env, v T)
}

// Var is a typed workflow variable. It is both an Arg and an Out. The zero
// Var is not usable; get one from Declare or from New.
type Var[T any] struct {
	scope *Scope
	idx   int
	name  string
}

// Name returns the name the variable was declared with.
func (v Var[T]) Name() string { return v.name }

// Get returns the variable's value in e's run, or T's zero value if it was
// never set.
func (v Var[T]) Get(e *Env) T {
	if c, ok := e.find(v.scope, v.name).slots[v.idx].(*T); ok {
		return *c
	}
	var zero T
	return zero
}

// Set stores x in e's run.
func (v Var[T]) Set(e *Env, x T) {
	owner := e.find(v.scope, v.name)
	if c, ok := owner.slots[v.idx].(*T); ok {
		*c = x
		return
	}
	c := new(T)
	*c = x
	owner.slots[v.idx] = c
}

type constArg[T any] struct{ v T }

func (c constArg[T]) Get(*Env) T { return c.v }

// Const is an in-argument with a fixed value.
func Const[T any](v T) Arg[T] { return constArg[T]{v} }

// Expr is an in-argument computed from the environment when the activity
// starts, like a WF4 lambda value.
type Expr[T any] func(e *Env) T

// Get evaluates the expression.
func (f Expr[T]) Get(e *Env) T { return f(e) }

type discard[T any] struct{}

func (discard[T]) Set(*Env, T) {}

// Discard is an out-argument that drops the value.
func Discard[T any]() Out[T] { return discard[T]{} }
