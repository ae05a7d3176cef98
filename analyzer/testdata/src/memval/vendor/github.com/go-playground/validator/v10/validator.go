// Package validator is a reduced go-playground/validator v10: Struct
// validates with context.Background(), and StructCtx hands its context
// only to the validation funcs kept in a map (the built-in ones and the
// ones registered), called as func values.
package validator

import (
	"context"
	"errors"
)

// Func validates without a context; RegisterValidation wraps it.
type Func func(field string) bool

// FuncCtx validates with the context StructCtx is given.
type FuncCtx func(ctx context.Context, field string) bool

type Validate struct {
	validations map[string]FuncCtx
}

func New() *Validate {
	return &Validate{validations: map[string]FuncCtx{
		"required": func(_ context.Context, field string) bool { return field != "" },
	}}
}

// RegisterValidation wraps fn, which never sees the context.
func (v *Validate) RegisterValidation(tag string, fn Func) {
	v.validations[tag] = func(_ context.Context, field string) bool { return fn(field) }
}

// RegisterValidationCtx keeps fn, which StructCtx gives its context.
func (v *Validate) RegisterValidationCtx(tag string, fn FuncCtx) {
	v.validations[tag] = fn
}

func (v *Validate) Struct(s string) error {
	return v.StructCtx(context.Background(), s)
}

func (v *Validate) StructCtx(ctx context.Context, s string) error {
	for _, fn := range v.validations {
		if !fn(ctx, s) {
			return errors.New("invalid")
		}
	}
	return nil
}
