// Package fiber is a minimal stand-in for github.com/gofiber/fiber/v2.
package fiber

import "context"

type Ctx struct{}

func (c *Ctx) UserContext() context.Context { return context.TODO() }

type Handler = func(*Ctx) error

type App struct{}

type ErrorHandler = func(*Ctx, error) error

type Config struct{ ErrorHandler ErrorHandler }

func New(config ...Config) *App              { return &App{} }
func (a *App) Get(path string, h ...Handler) {}

// Router is what App and Group implement, as fiber's.
type Router interface {
	Use(args ...interface{}) Router
}

func (a *App) Use(args ...interface{}) Router { return a }

// Group is what App.Group returns behind Router, as fiber's.
type Group struct{}

func (g *Group) Use(args ...interface{}) Router { return g }
