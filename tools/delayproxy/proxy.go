package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"
)

// Proxy forwards TCP connections to an upstream and holds every byte coming
// back from it for a fixed delay, as a network path would. Over HTTP with
// keep-alive each request then waits that much longer for its response,
// which is what the embedded blob fake's -storage-latency models; the proxy
// puts the same latency in front of a real Blob service (Azurite).
type Proxy struct {
	upstream string
	delay    time.Duration
	log      *slog.Logger

	ln    net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// chunk is bytes read from the upstream at a time.
type chunk struct {
	data []byte
	at   time.Time
}

// pending bounds the chunks held per connection (32 KiB each): the delay
// line's memory stays fixed while the reader waits for the writer.
const pending = 16

// Listen starts a proxy on addr forwarding to upstream with delay.
func Listen(addr, upstream string, delay time.Duration, log *slog.Logger) (*Proxy, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("delayproxy: listen %s: %w", addr, err)
	}
	p := &Proxy{upstream: upstream, delay: delay, log: log, ln: ln, conns: map[net.Conn]struct{}{}}
	p.wg.Go(p.accept)
	return p, nil
}

// Addr is the listening address.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Close stops accepting, closes every connection and waits for them.
func (p *Proxy) Close() error {
	err := p.ln.Close()
	p.mu.Lock()
	for c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
	return err
}

func (p *Proxy) track(c net.Conn, on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if on {
		p.conns[c] = struct{}{}
	} else {
		delete(p.conns, c)
	}
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				p.log.Error("delayproxy: accept", "err", err)
			}
			return
		}
		p.wg.Go(func() { p.serve(c) })
	}
}

func (p *Proxy) serve(client net.Conn) {
	up, err := net.DialTimeout("tcp", p.upstream, 5*time.Second)
	if err != nil {
		p.log.Warn("delayproxy: dial upstream", "upstream", p.upstream, "err", err)
		_ = client.Close()
		return
	}
	p.track(client, true)
	p.track(up, true)
	defer func() {
		p.track(client, false)
		p.track(up, false)
		_ = client.Close()
		_ = up.Close()
	}()
	var wg sync.WaitGroup
	// Requests go up at once: one direction of delay is one delay per round trip.
	wg.Go(func() {
		_, _ = io.Copy(up, client)
		halfClose(up)
	})
	wg.Go(func() {
		p.delayed(client, up)
		halfClose(client)
	})
	wg.Wait()
}

// delayed copies src to dst, writing each chunk delay after it was read.
func (p *Proxy) delayed(dst io.Writer, src io.Reader) {
	line := make(chan chunk, pending)
	go func() {
		defer close(line)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				line <- chunk{data: buf[:n], at: time.Now()}
			}
			if err != nil {
				return
			}
		}
	}()
	broken := false
	for c := range line {
		if broken {
			continue // drain so the reader can finish
		}
		if wait := time.Until(c.at.Add(p.delay)); wait > 0 {
			time.Sleep(wait)
		}
		if _, err := dst.Write(c.data); err != nil {
			broken = true
		}
	}
}

// halfClose ends the write side of a TCP connection, so the peer sees EOF
// while its own answer can still arrive.
func halfClose(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
}
