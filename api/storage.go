package api

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"
)

// store is the blob storage used by the upload endpoints: one shared azblob
// client over one tuned transport, plus what is needed to build the
// per-request antipattern client.
type store struct {
	connString string
	container  string
	retries    int
	tryTimeout time.Duration

	transport *http.Transport
	client    *azblob.Client
}

// newTransport returns a transport keeping up to idlePerHost idle
// connections per host. azcore's default keeps only 10, so under a few
// hundred concurrent uploads most requests would dial anew.
func newTransport(idlePerHost int) *http.Transport {
	return newBoundedTransport(idlePerHost, 0)
}

// newBoundedTransport is newTransport that also opens at most maxPerHost
// connections per host (0 = no bound): a request beyond it waits for a
// connection, within its context.
func newBoundedTransport(idlePerHost, maxPerHost int) *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialCopyConn(&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}),
		MaxIdleConns:          0, // no global cap; the per-host cap below bounds it
		MaxIdleConnsPerHost:   idlePerHost,
		MaxConnsPerHost:       maxPerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// copyConn is a storage connection whose ReadFrom copies through a pooled
// buffer. The transport writes a request body through a bufio.Writer; once
// that buffer has been flushed mid-request (a 4 KiB upload and its headers
// overflow the 4 KiB default), the rest goes to the connection's ReadFrom,
// and *net.TCPConn's, finding neither a file nor a socket to splice from,
// falls back to io.Copy with a new 32 KiB buffer: a tenth of the bytes the
// API allocated under the lab's uploads. The copy is synchronous, so the
// buffer is the pool's again when ReadFrom returns.
type copyConn struct{ net.Conn }

var copyBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

func (c copyConn) ReadFrom(r io.Reader) (int64, error) {
	bp := copyBufs.Get().(*[]byte)
	defer copyBufs.Put(bp)
	// The bare writer keeps io.CopyBuffer from calling ReadFrom again.
	return io.CopyBuffer(struct{ io.Writer }{c.Conn}, r, *bp)
}

func dialCopyConn(d *net.Dialer) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return copyConn{c}, nil
	}
}

// newStore builds the shared client over one transport holding at most
// conns connections to storage, all kept when idle. Sync uploads use at
// most one per worker. Async ones are bounded by nothing else: sized by the
// workers, as it once was, the idle pool made 4000 concurrent async uploads
// close and re-dial most of their connections (async did 2354 OK/s against
// sync's 3677 on instant storage); unbounded, it held 4000 connections
// and their goroutines and buffers. Storage connections are a scarce
// resource like the workers, so they get an explicit bound too.
func newStore(connString, container string, conns, retries int, tryTimeout time.Duration) (*store, error) {
	s := &store{
		connString: connString,
		container:  container,
		retries:    retries,
		tryTimeout: tryTimeout,
		transport:  newBoundedTransport(conns, conns),
	}
	c, err := s.newClient(s.transport)
	if err != nil {
		return nil, err
	}
	s.client = c
	return s, nil
}

// wrapStorageTransport, when set (by tests only), wraps the transport of
// every storage client: it lets a test be a RoundTripper that uses all the
// contract allows, such as reading a request body after RoundTrip returned.
var wrapStorageTransport func(http.RoundTripper) http.RoundTripper

// newClient builds an azblob client over transport with bounded retries:
// azcore's default (3 retries from 800 ms, up to 60 s apart) could keep a
// request on a failing storage for minutes; here the worst case is about
// (retries+1)·tryTimeout plus well under a second of delays, and the
// handler's upstream deadline caps it further.
func (s *store) newClient(transport *http.Transport) (*azblob.Client, error) {
	// azcore reads MaxRetries 0 as its default of three; "no retries" is
	// negative there.
	retries := int32(s.retries)
	if retries == 0 {
		retries = -1
	}
	var rt http.RoundTripper = transport
	if wrapStorageTransport != nil {
		rt = wrapStorageTransport(rt)
	}
	opts := &azblob.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport: &http.Client{Transport: rt},
		Retry: policy.RetryOptions{
			MaxRetries:    retries,
			TryTimeout:    s.tryTimeout,
			RetryDelay:    100 * time.Millisecond,
			MaxRetryDelay: 400 * time.Millisecond,
		},
	}}
	c, err := azblob.NewClientFromConnectionString(s.connString, opts)
	if err != nil {
		return nil, fmt.Errorf("azblob client: %w", err)
	}
	return c, nil
}

// ensureContainer creates the upload container once, at start-up; the
// original sample's CreateIfNotExists per request is one round trip wasted.
func (s *store) ensureContainer(ctx context.Context) error {
	_, err := s.client.CreateContainer(ctx, s.container, nil)
	if err != nil && !bloberror.HasCode(err, bloberror.ContainerAlreadyExists) {
		return fmt.Errorf("create container %q: %w", s.container, err)
	}
	return nil
}

// readyTimeout bounds each check of /readyz, so a hung backend makes the
// probe fail in bounded time rather than hang it.
const readyTimeout = 2 * time.Second

// ping checks that storage answers, for /readyz.
func (s *store) ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	_, err := s.client.ServiceClient().NewContainerClient(s.container).GetProperties(ctx, nil)
	if err != nil {
		return fmt.Errorf("container properties: %w", err)
	}
	return nil
}

func (s *store) close() { s.transport.CloseIdleConnections() }
