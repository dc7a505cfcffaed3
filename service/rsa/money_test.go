package rsa

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	json "github.com/segmentio/encoding/json"
)

// The RSA's amounts are read and written exactly: minor units as the major unit's decimal and
// back, whatever the currency's digits, the same as exact rational arithmetic.
func TestAmountsAreConvertedExactlyBetweenMinorAndMajorUnits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, code := range []string{"USD", "JPY", "BHD"} {
		d := digits(code)
		scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d)), nil)
		values := []int64{0, 1, -1, 5, -5, 99, 100, 101, -100, 123456, 999999999999}
		for range 2000 {
			values = append(values, rng.Int64N(2_000_000_000_000)-1_000_000_000_000)
		}
		for _, v := range values {
			want := new(big.Rat).SetFrac(big.NewInt(v), scale).FloatString(d)
			got := major(v, code)
			if string(got) != want {
				t.Fatalf("%s: major(%d) = %s, want %s", code, v, got, want)
			}
			back, err := minor(got, code)
			if err != nil || back != v {
				t.Fatalf("%s: minor(%s) = %d, %v; want %d", code, got, back, err, v)
			}
		}
	}
	for n, want := range map[string]int64{"12.5": 1250, "12.50": 1250, "-0.01": -1, "0.005": 0, "0.015": 2, "0.025": 2, "1e2": 10000, "12": 1200, "007.1": 710, "-3.145": -314, "-3.155": -316} {
		got, err := minor(json.Number(n), "USD")
		if err != nil || got != want {
			t.Errorf("minor(%s) = %d, %v; want %d", n, got, err, want)
		}
	}
	for _, n := range []string{"abc", "1.2.3", "-", ".", "99999999999999999999", "1e40", strconv.Itoa(1<<62) + ".5"} {
		if got, err := minor(json.Number(n), "USD"); err == nil {
			t.Errorf("minor(%s) = %d, want an error", n, got)
		}
	}
}
