// Package before passes gin's *gin.Context as the context of an outgoing
// call. It compiles and looks context-aware, but under gin's default
// (Engine.ContextWithFallback false) c.Done() is nil and c.Err() nil, so
// the call is as uncancellable as one given context.Background().
//
// syncio reports it (SIO002, naming c.Request.Context()) unless the
// program sets ContextWithFallback = true.
package before
