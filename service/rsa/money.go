package rsa

import (
	"fmt"
	"math/big"

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

// major writes minor units as a number in the major unit.
func major(minor int64, code string) json.Number {
	r := new(big.Rat).SetFrac(big.NewInt(minor), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits(code))), nil))
	return json.Number(r.FloatString(digits(code)))
}

// minor reads a number in the major unit as minor units, within ±input.MaxAmount; empty is zero.
func minor(n json.Number, code string) (int64, error) {
	if n == "" {
		return 0, nil
	}
	if len(n) > 40 {
		return 0, fmt.Errorf("%q is too long a number", n[:40])
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
