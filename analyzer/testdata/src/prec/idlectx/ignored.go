package idlectx

import (
	"context"
	"database/sql"

	"github.com/gin-gonic/gin"

	"prec/idlectx/valid"
)

// A callee that never reads its context parameter (issue 21 item 6,
// apache/answer's GetAIProvider(ctx)): the dropped context it is given
// reaches nothing, and the only finding at the call is the context.TODO()
// it does its I/O with. A callee that reads the parameter in any way
// (passes it on, captures it) keeps the finding.

var settings *sql.DB

// siteAI ignores its context and queries with context.TODO().
func siteAI(ctx context.Context) error { // want siteAI:`blocks\(SIO002: database/sql.\(\*DB\).QueryContext\) \+ ctxunused`
	_, err := settings.QueryContext(context.TODO(), "SELECT ai FROM site")
	return err
}

// captured reads its context only in a closure: still a reference.
func captured(ctx context.Context) error { // want captured:`blocks\(SIO002: database/sql.\(\*DB\).QueryContext\)$`
	check := func() error { return ctx.Err() }
	if err := check(); err != nil {
		return err
	}
	_, err := settings.QueryContext(context.TODO(), "SELECT ai FROM site")
	return err
}

func AIProvider(c *gin.Context) {
	_, _ = valid.Providers(c)             // want `^AIProvider calls valid.Providers → prec/idlectx/valid.providers, which is given context.TODO\(\) instead of the request context.*\(SIO002\)$`
	_ = valid.Named(context.Background()) // want `^AIProvider calls valid.Named → prec/idlectx/valid.providers, which is given context.TODO\(\) instead of the request context.*\(SIO002\)$`
	_ = siteAI(c)                         // want `^AIProvider calls idlectx.siteAI → database/sql.\(\*DB\).QueryContext, which is given context.TODO\(\) instead of the request context.*\(SIO002\)$`
	_ = valid.Forward(c)                  // want `^prec/idlectx/valid.Forward is given c \(a \*gin.Context` `\(SIO008\)$`
	_ = captured(context.Background())    // want `^prec/idlectx.captured is given context.Background\(\)`
}

// routes builds the engine with gin's default ContextWithFallback =
// false, so c is never cancelled and passing it is a finding here.
func routes() *gin.Engine {
	r := gin.New()
	r.GET("/", AIProvider)
	return r
}
