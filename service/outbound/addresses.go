package outbound

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
)

type class int

const (
	classPublic   class = iota
	classPrivate        // refused unless Policy.AllowPrivate
	classMetadata       // refused always: link-local and cloud metadata
)

func prefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// metadataPrefixes are metadata services outside the link-local ranges: AWS's IPv6 instance
// metadata, Alibaba Cloud's metadata and Azure's host (wireserver) address.
var metadataPrefixes = prefixes("fd00:ec2::254/128", "100.100.100.200/32", "168.63.129.16/32")

// privatePrefixes are the non-public ranges netip has no predicate for.
var privatePrefixes = prefixes(
	"0.0.0.0/8",       // this network
	"100.64.0.0/10",   // shared address space (carrier-grade NAT)
	"192.0.0.0/24",    // IETF protocol assignments
	"192.0.2.0/24",    // documentation
	"198.18.0.0/15",   // benchmarking
	"198.51.100.0/24", // documentation
	"203.0.113.0/24",  // documentation
	"240.0.0.0/4",     // reserved, and the limited broadcast address
	"100::/64",        // discard
	"2001:db8::/32",   // documentation
	"fec0::/10",       // site-local (deprecated)
)

// classify says which rule refuses a, if any.
func classify(a netip.Addr) class {
	a = a.WithZone("").Unmap()
	if v4, ok := embeddedIPv4(a); ok {
		return classify(v4)
	}
	for _, p := range metadataPrefixes {
		if p.Contains(a) {
			return classMetadata
		}
	}
	if a.IsLinkLocalUnicast() {
		return classMetadata
	}
	if a.IsLoopback() || a.IsPrivate() || a.IsUnspecified() || a.IsMulticast() || !a.IsGlobalUnicast() {
		return classPrivate
	}
	for _, p := range privatePrefixes {
		if p.Contains(a) {
			return classPrivate
		}
	}
	return classPublic
}

var (
	nat64     = prefixes("64:ff9b::/96")
	nat64Wide = prefixes("64:ff9b:1::/48")
	sixToFour = prefixes("2002::/16")
	compat    = prefixes("::/96", "::ffff:0:0:0/96") // IPv4-compatible; IPv4-translated (SIIT)
)

// embeddedIPv4 is the IPv4 address an IPv6 address carries to an IPv4 host: NAT64 and SIIT
// translate it there, and 6to4 and IPv4-compatible addresses tunnel to it.
func embeddedIPv4(a netip.Addr) (netip.Addr, bool) {
	if !a.Is6() || a.IsUnspecified() || a.IsLoopback() {
		return netip.Addr{}, false
	}
	b := a.As16()
	switch {
	case nat64[0].Contains(a) || nat64Wide[0].Contains(a) || compat[0].Contains(a) || compat[1].Contains(a):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixToFour[0].Contains(a):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return netip.Addr{}, false
}

// metadataNames are the names of cloud metadata services (Google Cloud, AWS, and the short
// name some clouds' resolvers answer).
var metadataNames = map[string]bool{
	"metadata.google.internal":   true,
	"metadata.goog":              true,
	"metadata":                   true,
	"instance-data":              true,
	"instance-data.ec2.internal": true,
}

// privateName reports whether a lower-case name is one only a private resolver answers: the
// loopback name, and the special-use domains for local and internal networks.
func privateName(name string) bool {
	if name == "localhost" || name == "localhost.localdomain" {
		return true
	}
	for _, suffix := range []string{".localhost", ".local", ".internal", ".home.arpa"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

var errBadNumericHost = errors.New("invalid numeric host")

// parseHostAddr reads a URL host that is an address: an IP literal (an IPv6 zone is dropped),
// or a numeric IPv4 form a C resolver takes (inet_aton: one to four parts, each decimal,
// octal with a leading 0 or hexadecimal with 0x, the last filling the remaining bytes). isAddr
// is false for a name; err is set for a numeric host that spells no address.
func parseHostAddr(host string) (addr netip.Addr, isAddr bool, err error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return a.WithZone("").Unmap(), true, nil
	}
	h := strings.TrimSuffix(host, ".")
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		if numericPart(parts[len(parts)-1]) {
			return netip.Addr{}, false, errBadNumericHost
		}
		return netip.Addr{}, false, nil
	}
	for _, part := range parts {
		if !numericPart(part) {
			if numericPart(parts[len(parts)-1]) {
				// A name's last label is never a number: whatever this is, no resolver
				// should be asked for it.
				return netip.Addr{}, false, errBadNumericHost
			}
			return netip.Addr{}, false, nil
		}
	}
	vals := make([]uint64, len(parts))
	for i, part := range parts {
		v, err := parseNumericPart(part)
		if err != nil {
			return netip.Addr{}, false, err
		}
		vals[i] = v
	}
	var n uint64
	last := len(vals) - 1
	for i := 0; i < last; i++ {
		if vals[i] > 0xff {
			return netip.Addr{}, false, errBadNumericHost
		}
		n = n<<8 | vals[i]
	}
	bits := uint(8 * (4 - last))
	if vals[last] >= 1<<bits {
		return netip.Addr{}, false, errBadNumericHost
	}
	n = n<<bits | vals[last]
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true, nil
}

// numericPart reports whether s is written as a number: digits, or 0x and hex digits.
func numericPart(s string) bool {
	if s == "" {
		return false
	}
	if len(s) > 1 && (s[:2] == "0x" || s[:2] == "0X") {
		for _, c := range s[2:] {
			if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
				return false
			}
		}
		return true
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func parseNumericPart(s string) (uint64, error) {
	base := 10
	switch {
	case len(s) > 1 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, nil
		}
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	v, err := strconv.ParseUint(s, base, 32)
	if err != nil {
		return 0, errBadNumericHost
	}
	return v, nil
}
