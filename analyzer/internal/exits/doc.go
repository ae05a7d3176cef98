// Package exits finds the stretches of a body that can only end the
// process. A service's start-up helpers and error branches end in
// logger.Fatal or os.Exit, often after flushing a reporter with
// context.Background(); reached from a handler, the request is not served
// whatever they block on, so none of it is a request-path finding. The
// analyzer drops the items inside such stretches (Spans, Drop), and Find
// exports paths.ExitsFact for the functions that end the process.
//
// The definition is deliberately simple, so that it never hides a path
// that returns to the request: a block ends the process when its last
// statement is a call that does (an exit row of knowledge's tables, a
// function of this package found so, another package's function with a
// paths.ExitsFact) and nothing in the block returns or jumps out of it
// before that call. A function ends the process when its body is such a
// block. A function that exits on some branches only, or whose exit sits
// in an if at its end, does not.
//
// panic is not an exit: net/http, gin and the other routers recover a
// handler's panic and serve the next request, so what ran before it did
// block the request (and the blocking happened before the panic anyway).
// runtime.Goexit ends a goroutine only; neither is a row.
//
// It knows no rule: which operations a dropped item held is the rules'.
package exits
