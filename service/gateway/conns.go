package gateway

import (
	"net"
	"sync"

	"github.com/orrery/orrery/service/caller"
)

// perAddress is a listener that keeps at most max connections open from one host: past it a
// new connection is closed as soon as it is accepted, so that one address holding idle
// connections cannot take every file descriptor of the server.
type perAddress struct {
	net.Listener
	max int

	mu   sync.Mutex // guards open
	open map[string]int
}

func limitPerAddress(l net.Listener, max int) net.Listener {
	return &perAddress{Listener: l, max: max, open: map[string]int{}}
}

func (l *perAddress) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := caller.Host(c.RemoteAddr().String())
		l.mu.Lock()
		full := l.open[host] >= l.max
		if !full {
			l.open[host]++
		}
		l.mu.Unlock()
		if full {
			c.Close()
			continue
		}
		return &countedConn{Conn: c, release: func() { l.release(host) }}, nil
	}
}

func (l *perAddress) release(host string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[host]--; l.open[host] <= 0 {
		delete(l.open, host)
	}
}

// countedConn gives its slot back once, on the first Close.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
