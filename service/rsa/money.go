package rsa

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/bojanz/currency"
	json "github.com/segmentio/encoding/json"

	"github.com/checkoutd/checkoutd/service/input"
)

// The RSA speaks money in the currency's major unit (a JSON number such as 12.5); checkoutd keeps
// minor units. Conversions are exact: a number with more decimals than the currency has is
// rounded half to even, once.

func digits(code string) int {
	d, ok := currency.GetDigits(code)
	if !ok {
		return 2
	}
	return int(d)
}

// major writes minor units as a number in the major unit: the digits of minor with the
// currency's decimal point put in.
func major(minor int64, code string) json.Number {
	d := digits(code)
	if d == 0 {
		return json.Number(strconv.FormatInt(minor, 10))
	}
	var b [32]byte
	out := b[:0]
	u := uint64(minor)
	if minor < 0 {
		out = append(out, '-')
		u = -u
	}
	s := strconv.AppendUint(nil, u, 10)
	for len(s) <= d {
		s = append([]byte{'0'}, s...)
	}
	out = append(out, s[:len(s)-d]...)
	out = append(out, '.')
	out = append(out, s[len(s)-d:]...)
	return json.Number(out)
}

// minor reads a number in the major unit as minor units, within ±input.MaxAmount; empty is zero.
func minor(n json.Number, code string) (int64, error) {
	if n == "" {
		return 0, nil
	}
	if len(n) > 40 {
		return 0, fmt.Errorf("%q is too long a number", n[:40])
	}
	if v, ok := minorPlain(string(n), digits(code)); ok {
		if v > input.MaxAmount || v < -input.MaxAmount {
			return 0, fmt.Errorf("%s is out of bounds", n)
		}
		return v, nil
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return 0, fmt.Errorf("%q is not a number", n)
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits(code))), nil)))
	// Round half to even.
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	twice := new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2))
	if c := twice.Cmp(r.Denom()); c > 0 || (c == 0 && q.Bit(0) == 1) {
		q.Add(q, big.NewInt(int64(r.Sign())))
	}
	if !q.IsInt64() || q.Int64() > input.MaxAmount || q.Int64() < -input.MaxAmount {
		return 0, fmt.Errorf("%s is out of bounds", n)
	}
	return q.Int64(), nil
}

// minorPlain reads the numbers an RSA mostly sends, [-]digits[.digits] with at most d decimals
// and 15 digits in all, without rounding; false for any other, which minor reads exactly.
func minorPlain(n string, d int) (int64, bool) {
	neg := strings.HasPrefix(n, "-")
	if neg {
		n = n[1:]
	}
	whole, frac, dot := strings.Cut(n, ".")
	if whole == "" || (dot && frac == "") || len(frac) > d || len(whole)+d > 15 {
		return 0, false
	}
	var v int64
	for _, part := range []string{whole, frac} {
		for i := 0; i < len(part); i++ {
			c := part[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int64(c-'0')
		}
	}
	for range d - len(frac) {
		v *= 10
	}
	if neg {
		v = -v
	}
	return v, true
}
