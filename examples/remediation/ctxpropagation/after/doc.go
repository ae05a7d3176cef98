// Package after is ../before with the request's context passed down: the
// timeout derives from r.Context(), the helper takes a ctx parameter, and
// work that must outlive the request detaches on purpose with
// context.WithoutCancel. syncio reports nothing.
package after
