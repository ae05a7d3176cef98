// Package branches tells, for the roots line, a dispatch branch from a
// handler. A service with one registered handler that picks a handleX
// method by path (ntfy's handle → handleInternal → handleAccountGet,
// often through its own adapters: ensureUser(s.handleAccountGet)(w, r, v))
// has one handler a reader counts, and every handleX is a root too, since
// syncio reports inside each. The roots line counts them apart
// (seen.KindCalled): a root that may be a branch (seen.Root.Branch) and
// that the whole run only calls on the spot.
//
// It marks the candidates (Mark) and counts, per package, the calls and
// the other uses of every function that is or may be one (Refs);
// seen.Merge adds the packages up. It knows roots only as summaries the
// analyzer made and adapters as resolve finds them; it decides nothing
// about findings.
package branches
