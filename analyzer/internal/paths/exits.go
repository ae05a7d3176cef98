package paths

// ExitsFact marks a function that ends the process whenever it is called:
// its body's last statement is a call that ends the process (an exit row
// of knowledge's tables, or a function with this fact) and nothing before
// it returns or jumps out of the body. It is a fact of its own, not a
// field of BlocksFact, because such a function usually leads to nothing
// that blocks (its own body is one process-ending block) and so exports
// no BlocksFact, yet a caller in another package must know that a block
// ending in a call of it is no request path.
type ExitsFact struct {
	// By is the key of the call the body ends in (os.Exit, log.Fatal, or
	// another function with this fact). Gob needs a field, and the tests'
	// // want lines read it.
	By string
}

// AFact marks ExitsFact as an object fact.
func (*ExitsFact) AFact() {}

// String is the fact as the tests' // want lines state it.
func (f *ExitsFact) String() string { return "exits(" + f.By + ")" }
