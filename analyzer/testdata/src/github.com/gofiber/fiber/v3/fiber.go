// Package fiber is a minimal stand-in for github.com/gofiber/fiber/v3,
// where Ctx is an interface that is itself a context.Context.
package fiber

import (
	"context"
	"time"
)

type Ctx interface {
	Context() context.Context
	Deadline() (time.Time, bool)
	Done() <-chan struct{}
	Err() error
	Value(key any) any
}

type Handler = func(Ctx) error

type App struct{}

type ErrorHandler = func(Ctx, error) error

type Config struct{ ErrorHandler ErrorHandler }

func New(config ...Config) *App              { return &App{} }
func (a *App) Get(path string, h ...Handler) {}

// Router is what App and Group implement, as fiber's.
type Router interface {
	Use(args ...any) Router
}

func (a *App) Use(args ...any) Router { return a }

// Group is what App.Group returns behind Router, as fiber's.
type Group struct{}

func (g *Group) Use(args ...any) Router { return g }
