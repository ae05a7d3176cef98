package api

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncio/syncio/fakes/profile"
)

// instancing selects how the handlers obtain the profile service, after the
// WCF instancing modes of the original sample.
type instancing string

const (
	perCall    instancing = "percall"    // a new service instance per request
	shared     instancing = "shared"     // one instance for all requests (default)
	serialized instancing = "serialized" // one instance, one call at a time (mutex across the I/O)
)

func parseInstancing(c *gin.Context) (instancing, bool) {
	switch v := instancing(c.DefaultQuery("instancing", string(shared))); v {
	case perCall, shared, serialized:
		return v, true
	default:
		abortError(c, http.StatusBadRequest, codeInvalidInstancing,
			fmt.Sprintf("instancing %q: want percall, shared or serialized", v))
		return "", false
	}
}

// profiles is the profile backend: the in-process fake, or a remote
// fakes/profile server when remote is set.
type profiles struct {
	opts   []profile.Option // for per-call in-process instances
	local  *profile.Service // the shared in-process instance
	remote *profile.Client  // the shared remote client, or nil
	// timeout bounds a blocking remote call, which has no request context.
	timeout time.Duration

	// serial is the lock of the "serialized" instancing mode. Holding a mutex
	// across I/O is the antipattern (SIO003) that this mode demonstrates.
	serial sync.Mutex
}

// instance returns the backend a request uses under mode m.
func (p *profiles) instance(m instancing) *profiles {
	if m != perCall {
		return p
	}
	if p.remote != nil {
		// A remote client is a thin wrapper over the shared http.Client, so a
		// per-call instance costs an allocation, not a connection.
		return &profiles{remote: p.remote, timeout: p.timeout}
	}
	return &profiles{local: profile.New(p.opts...), timeout: p.timeout}
}

// getBlocking is the synchronous call: no context, so nothing can cancel it,
// and the caller's goroutine (and worker) is held until it returns.
func (p *profiles) getBlocking() (profile.Profile, error) {
	if p.remote != nil {
		// The remote client only has a ctx-aware call; the blocking variant
		// gives it a context detached from any request (SIO002), bounded by
		// our upstream timeout only, to keep the semantics of the in-process
		// blocking method.
		ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
		defer cancel()
		return p.remote.Get(ctx)
	}
	return p.local.GetUserProfile()
}

// getAsync is the asynchronous call: it waits on a future (or a remote call)
// under the request's context.
func (p *profiles) getAsync(ctx context.Context) (profile.Profile, error) {
	if p.remote != nil {
		return p.remote.Get(ctx)
	}
	return p.local.GetUserProfileAsync(ctx).Wait(ctx)
}

// syncProfile holds its worker across the blocking call: the antipattern.
func (a *app) syncProfile(c *gin.Context) {
	mode, ok := parseInstancing(c)
	if !ok {
		return
	}
	svc := a.profiles.instance(mode)
	var (
		p   profile.Profile
		err error
	)
	if mode == serialized {
		//syncio:ignore SIO002,SIO003,SIO005 -- deliberate antipattern for the demo
		p, err = a.serializedBlocking(svc)
	} else {
		//syncio:ignore SIO002,SIO005 -- deliberate antipattern for the demo
		p, err = svc.getBlocking()
	}
	a.respondProfile(c, p, err)
}

// serializedBlocking is the serialised single instance: one shared lock held
// across the blocking call, so requests run one at a time. The deferred
// Unlock keeps a panicking call (answered 500 by the recovery middleware)
// from leaving the lock held for good.
func (a *app) serializedBlocking(svc *profiles) (profile.Profile, error) {
	a.profiles.serial.Lock()
	defer a.profiles.serial.Unlock()
	return svc.getBlocking()
}

// asyncProfile releases its worker while the call is in flight.
func (a *app) asyncProfile(c *gin.Context) {
	mode, ok := parseInstancing(c)
	if !ok {
		return
	}
	svc := a.profiles.instance(mode)
	ctx, cancel := context.WithTimeout(c.Request.Context(), a.cfg.UpstreamTimeout)
	defer cancel()
	var p profile.Profile
	err := a.pool.Await(ctx, func(ctx context.Context) error {
		var err error
		if mode == serialized {
			// Await runs this literal on the request's goroutine, so syncio
			// follows it into the lock held across the call.
			//syncio:ignore SIO003 -- deliberate: the serialized instancing shows that async does not rescue a lock held across I/O
			p, err = a.serializedAsync(ctx, svc)
			return err
		}
		p, err = svc.getAsync(ctx)
		return err
	})
	a.respondProfile(c, p, err)
}

// serializedAsync shows that async does not rescue a lock held across I/O:
// the worker is free, but every request still waits for the one before it.
func (a *app) serializedAsync(ctx context.Context, svc *profiles) (profile.Profile, error) {
	a.profiles.serial.Lock()
	defer a.profiles.serial.Unlock()
	return svc.getAsync(ctx)
}

// wrappedProfile is the "fake async" of the original sample (`await
// Task.Run(blocking)`): the handler gives its worker back, and the blocking
// call runs on another pool worker, which it holds for the whole call. One
// worker is blocked per in-flight request, as with sync, plus a hop through
// the continuation queue, so it scales like sync and never better.
func (a *app) wrappedProfile(c *gin.Context) {
	mode, ok := parseInstancing(c)
	if !ok {
		return
	}
	svc := a.profiles.instance(mode)
	ctx, cancel := context.WithTimeout(c.Request.Context(), a.cfg.UpstreamTimeout)
	defer cancel()
	var p profile.Profile
	// Offload calls the literal before it returns, so syncio follows it
	// (callsFact) and reports the blocking call inside as it would in the
	// handler's own body; the waste (a worker held across the I/O, just not
	// this handler's) is in pool semantics it cannot know.
	err := a.pool.Offload(ctx, func(context.Context) error {
		var err error
		if mode == serialized {
			a.profiles.serial.Lock()
			defer a.profiles.serial.Unlock()
			//syncio:ignore SIO002,SIO003,SIO005 -- deliberate: the wrapped "fake async" endpoint, a blocking call on another worker under the serialized lock
			p, err = svc.getBlocking()
			return err
		}
		//syncio:ignore SIO002,SIO005 -- deliberate: the wrapped "fake async" endpoint runs the blocking call on another worker
		p, err = svc.getBlocking()
		return err
	})
	a.respondProfile(c, p, err)
}

func (a *app) respondProfile(c *gin.Context, p profile.Profile, err error) {
	if err == nil {
		c.JSON(http.StatusOK, p)
		return
	}
	abortUpstream(c, err, codeUpstreamError, "profile service")
}
