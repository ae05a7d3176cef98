// Package after is ../before with the request's context,
// c.Request.Context(), given to the call: it ends when the client hangs up
// or the call's own bound passes, whatever the engine's
// ContextWithFallback. NewEngine shows that flag, and NewServer the
// server-side bounds around a gin engine.
package after
