package secrets

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func ring(t *testing.T, current string, previous ...string) *Ring {
	t.Helper()
	r, err := NewRing(current, strings.Join(previous, ","))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestASealedValueOpensOnlyWithItsKeyAndInItsColumn(t *testing.T) {
	a, b := GenerateKey(), GenerateKey()
	ra := ring(t, a)
	sealed := ra.Seal([]byte("whsec-1"), "shops.shared_secret")
	if !bytes.HasPrefix(sealed, []byte("enc:v1:"+ra.CurrentID()+":")) || bytes.Contains(sealed, []byte("whsec-1")) {
		t.Fatalf("sealed value %q", sealed)
	}
	if plain, err := ra.Open(sealed, "shops.shared_secret"); err != nil || string(plain) != "whsec-1" {
		t.Fatalf("open: %q %v", plain, err)
	}
	if _, err := ra.Open(sealed, "api_overrides.shared_secret"); !errors.Is(err, ErrNotOpened) {
		t.Fatalf("opened in another column: %v", err)
	}
	var unknown *UnknownKeyError
	if _, err := ring(t, b).Open(sealed, "shops.shared_secret"); !errors.As(err, &unknown) || unknown.ID != ra.CurrentID() {
		t.Fatalf("opened with a wrong key: %v", err)
	}
	tampered := bytes.Clone(sealed)
	tampered[len(tampered)-2] ^= 1
	if _, err := ra.Open(tampered, "shops.shared_secret"); !errors.Is(err, ErrNotOpened) {
		t.Fatalf("opened an altered value: %v", err)
	}
}

func TestARingOpensWhatItsPreviousKeysSealedAndSealsWithTheCurrentOne(t *testing.T) {
	a, b := GenerateKey(), GenerateKey()
	old := ring(t, a).Seal([]byte("tok"), "external_payment_gateways.api_token")
	rotated := ring(t, b, a)
	if plain, err := rotated.Open(old, "external_payment_gateways.api_token"); err != nil || string(plain) != "tok" {
		t.Fatalf("open under a previous key: %q %v", plain, err)
	}
	if got := SealedWith(rotated.Seal([]byte("tok"), "x.y")); got != ring(t, b).CurrentID() {
		t.Fatalf("sealed with %s", got)
	}
}

func TestAClearValueFromBeforeSealingIsReadAsItIs(t *testing.T) {
	if plain, err := ring(t, GenerateKey()).Open([]byte("legacy"), "rsa_configs.shared_secret"); err != nil || string(plain) != "legacy" {
		t.Fatalf("%q %v", plain, err)
	}
	if SealedWith([]byte("legacy")) != "" || IsSealed([]byte("legacy")) {
		t.Fatal("a clear value taken for a sealed one")
	}
}

func TestAKeyIsThirtyTwoBytesOfBase64(t *testing.T) {
	var invalid *InvalidKeyError
	for _, k := range []string{"", "not base64!", "c2hvcnQ="} {
		if _, err := NewRing(k, ""); !errors.As(err, &invalid) {
			t.Errorf("key %q: %v", k, err)
		}
	}
	if _, err := NewRing(GenerateKey(), "c2hvcnQ="); !errors.As(err, &invalid) || !strings.Contains(err.Error(), "CHECKOUT_SECRET_KEY_PREVIOUS") {
		t.Errorf("a bad previous key: %v", err)
	}
}
