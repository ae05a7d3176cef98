// Package before passes gin's *gin.Context as the context of an outgoing
// call. It compiles and looks context-aware, but under gin's default
// (Engine.ContextWithFallback false) c.Done() is nil and c.Err() nil, so
// the call is as uncancellable as one given context.Background().
//
// syncio does not report this yet: its line carries a "syncio-missed"
// marker, which the lint test checks is still unreported (the day the
// analyzer reports it, that test fails and the marker becomes a finding).
package before
