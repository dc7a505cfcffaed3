package outbound

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"syscall"
	"time"

	"github.com/valyala/fasthttp"
)

// NewFastClient returns the client for calls made while a shopper waits (service/remote): the
// call is written and its answer read on the caller's goroutine (fasthttp), where net/http's
// client hands each request to two goroutines of its own (docs/benchmarks.md has what that
// costs a checkout under a remote state authority). It speaks HTTP/1.1 only, uses no proxy,
// follows no redirects, verifies the certificates of https URLs, and reaches only addresses p
// allows, checked as NewClient's are when it connects; the caller checks each URL first
// (Policy.CheckURL) and bounds each call with a deadline. Paths and header names are sent as
// given.
//
// A request that meets a closed connection (one the remote closed while it was idle in the
// pool, which this client finds out only by using it) is sent once more, on a new connection:
// service/remote's requests are all safe to receive twice, each carrying the whole order state
// its answer is worked out from.
func NewFastClient(p Policy, maxAnswer int) *fasthttp.Client {
	return newFastClient(p, maxAnswer, lookupNetIP)
}

func newFastClient(p Policy, maxAnswer int, lookup func(context.Context, string) ([]netip.Addr, error)) *fasthttp.Client {
	d := &dialer{policy: p, lookup: lookup, net: net.Dialer{KeepAlive: 30 * time.Second}}
	d.net.Control = d.control
	return &fasthttp.Client{
		DialTimeout: func(addr string, timeout time.Duration) (net.Conn, error) {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			return d.dialContext(ctx, "tcp", addr)
		},
		// As NewClient's: many shoppers call one remote at once.
		MaxConnsPerHost:               1024,
		MaxConnWaitTimeout:            time.Second,
		MaxIdleConnDuration:           60 * time.Second,
		ReadBufferSize:                16 << 10,
		WriteBufferSize:               16 << 10,
		MaxResponseBodySize:           maxAnswer,
		MaxIdemponentCallAttempts:     2,
		RetryIfErr:                    retryOnClosedConnection,
		NoDefaultUserAgentHeader:      true,
		DisablePathNormalizing:        true,
		DisableHeaderNamesNormalizing: true,
	}
}

// retryOnClosedConnection sends a request again, once, when the connection was found closed
// (reset, or at its end before the answer), and never after a timeout.
func retryOnClosedConnection(_ *fasthttp.Request, attempts int, err error) (resetTimeout, retry bool) {
	closed := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, fasthttp.ErrConnectionClosed) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
	return false, attempts < 2 && closed
}
