// Package outbound is the one HTTP client for every call checkoutd makes to a URL a shop
// configured (payment gateways and webhook receivers; the platform connector, remote state
// authority and API override clients to come are to use it too), and the check of such a URL
// when it is configured.
//
// A shop's admin chooses these URLs, so without a guard an access token could make checkoutd
// call its own network: the cloud's metadata service, a database's HTTP port, an admin page on
// loopback. The guard refuses:
//   - always: link-local addresses (169.254.0.0/16, fe80::/10) and cloud metadata addresses and
//     names (169.254.169.254, fd00:ec2::254, 100.100.100.200, 168.63.129.16,
//     metadata.google.internal, metadata.goog, metadata, instance-data, ...);
//   - unless Policy.AllowPrivate: private (RFC 1918, fc00::/7), shared (100.64.0.0/10),
//     loopback, unspecified, multicast, broadcast, documentation and other reserved addresses,
//     and the names localhost, *.localhost, *.local, *.internal, *.home.arpa;
//   - always: URLs that are not http or https, and URLs with a user name or password.
//
// Addresses are normalized first: an IPv4-mapped IPv6 address (::ffff:a9fe:a9fe) is its IPv4
// address, an IPv4 address inside NAT64, 6to4 or IPv4-compatible IPv6 is checked as that IPv4
// address, and the numeric host forms a C resolver accepts (2852039166, 0xA9FEA9FE, 0251.0376.0251.0376,
// 169.254.43518) are the addresses they spell.
//
// At call time the client checks the URL again, then resolves the host itself and connects only
// to addresses the policy allows, checking each address again as the socket connects: a name that
// resolves to a refused address is refused, whatever the URL looked like when it was configured.
// The client follows no redirects (a 3xx is the answer of the protocol call, and a redirect
// could only lead somewhere the configured URL did not name) and ignores HTTP(S)_PROXY (the
// guard must see the address it connects to).
package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Policy says which addresses a call may reach.
type Policy struct {
	// AllowPrivate lets calls reach private, loopback, unspecified and other non-public
	// addresses (CHECKOUT_OUTBOUND_ALLOW_PRIVATE=true): for development and tests, whose
	// receivers listen on loopback. Link-local and metadata addresses stay refused.
	AllowPrivate bool
}

// Reasons a URL or an address is refused; each completes a sentence that starts with the field.
const (
	ReasonMetadata = "points to a link-local or cloud metadata address"
	ReasonPrivate  = "points to a private, loopback or other non-public address"
	ReasonUserinfo = "must not contain a user name or password"
	ReasonScheme   = "must be an absolute http or https URL"
	ReasonHost     = "has a host that is neither a valid name nor a valid address"
)

// RefusedError is a URL or an address the policy does not let a call reach. No request was sent.
type RefusedError struct {
	// Host is the host name or address refused, as it was found.
	Host string
	// Reason is one of the Reason constants.
	Reason string
}

func (e *RefusedError) Error() string {
	if e.Host == "" {
		return "outbound call refused: the URL " + e.Reason
	}
	return fmt.Sprintf("outbound call refused: %s %s", e.Host, e.Reason)
}

// AsRefused returns the refusal inside err, if there is one.
func AsRefused(err error) (*RefusedError, bool) {
	var e *RefusedError
	ok := errors.As(err, &e)
	return e, ok
}

// CheckURL checks a URL before any call is made to it, without DNS: an http or https scheme, a
// host, no user information, and a host that is neither a refused address (in any of its
// spellings) nor a refused name. A name that passes may still resolve to a refused address;
// the client refuses that when it connects.
func (p Policy) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return &RefusedError{Reason: ReasonScheme}
	}
	return p.checkURL(u)
}

func (p Policy) checkURL(u *url.URL) error {
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return &RefusedError{Reason: ReasonScheme}
	}
	if u.User != nil {
		return &RefusedError{Reason: ReasonUserinfo}
	}
	return p.checkHost(u.Hostname())
}

// checkHost checks a URL's host: an address in any spelling, or a name.
func (p Policy) checkHost(host string) error {
	addr, isAddr, err := parseHostAddr(host)
	if err != nil {
		return &RefusedError{Host: host, Reason: ReasonHost}
	}
	if isAddr {
		return p.check(host, addr)
	}
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if name == "" {
		return &RefusedError{Host: host, Reason: ReasonHost}
	}
	if metadataNames[name] {
		return &RefusedError{Host: host, Reason: ReasonMetadata}
	}
	if !p.AllowPrivate && privateName(name) {
		return &RefusedError{Host: host, Reason: ReasonPrivate}
	}
	return nil
}

// CheckAddr checks one address a call would connect to.
func (p Policy) CheckAddr(a netip.Addr) error { return p.check(a.String(), a) }

func (p Policy) check(host string, a netip.Addr) error {
	switch classify(a) {
	case classMetadata:
		return &RefusedError{Host: host, Reason: ReasonMetadata}
	case classPrivate:
		if !p.AllowPrivate {
			return &RefusedError{Host: host, Reason: ReasonPrivate}
		}
	}
	return nil
}

// NewClient returns the HTTP client for calls to configured URLs under p: each call gives up
// after timeout, follows no redirects, uses no proxy, and reaches only addresses p allows.
func NewClient(timeout time.Duration, p Policy) *http.Client {
	return newClient(timeout, p, lookupNetIP)
}

func newClient(timeout time.Duration, p Policy, lookup func(context.Context, string) ([]netip.Addr, error)) *http.Client {
	d := &dialer{policy: p, lookup: lookup, net: net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}}
	d.net.Control = d.control
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.DialContext = d.dialContext
	t.DialTLSContext = nil
	// A shop's gateway, RSA or override is called by many shoppers at once: with Go's default of
	// two idle connections per host, most calls would dial (and later close) a connection of
	// their own.
	t.MaxIdleConnsPerHost = 64
	// A request of a few kilobytes (an RSA's order state) leaves in one write and its answer
	// comes in one read: with the default 4 KiB buffers each took two system calls, and on
	// loopback a write is most of a call's CPU. Each idle connection keeps both buffers.
	t.WriteBufferSize, t.ReadBufferSize = 16<<10, 16<<10
	return &http.Client{
		Timeout:   timeout,
		Transport: &guard{policy: p, next: t},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// guard checks every request's URL before it is sent: a URL stored before the guard existed, or
// one a caller built, is held to the same rules as one configured now.
type guard struct {
	policy Policy
	next   http.RoundTripper
}

func (g *guard) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := g.policy.checkURL(req.URL); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	return g.next.RoundTrip(req)
}

// lookupNetIP resolves a host name with the system's resolver.
func lookupNetIP(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

type dialer struct {
	policy Policy
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	net    net.Dialer
}

// dialContext resolves the host, keeps the addresses the policy allows, and connects to the
// first that answers. When every address is refused, the call is refused and nothing is sent.
func (d *dialer) dialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, portText, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("outbound: invalid port %q", portText)
	}
	addr, isAddr, err := parseHostAddr(host)
	if err != nil {
		return nil, &RefusedError{Host: host, Reason: ReasonHost}
	}
	addrs := []netip.Addr{addr}
	if !isAddr {
		if addrs, err = d.lookup(ctx, host); err != nil {
			return nil, err
		}
	}
	var refused, failed error
	for _, a := range addrs {
		if err := d.policy.check(host, a); err != nil {
			if refused == nil {
				refused = err
			}
			continue
		}
		conn, err := d.net.DialContext(ctx, network, netip.AddrPortFrom(a.Unmap(), uint16(port)).String())
		if err == nil {
			return conn, nil
		}
		failed = err
	}
	if failed != nil {
		return nil, failed
	}
	if refused != nil {
		return nil, refused
	}
	return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
}

// control checks the address a socket is about to connect to: the last word, whatever resolved it.
func (d *dialer) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &RefusedError{Host: address, Reason: ReasonHost}
	}
	return d.policy.check(ap.Addr().String(), ap.Addr())
}
