// Package secrets seals the secrets checkoutd must keep readable (shop shared secrets and JWT
// keys, gateway API tokens, override and remote state authority shared secrets) with
// AES-256-GCM, so that a copy of the database alone gives none of them away.
//
// A sealed value reads "enc:v1:<key id>:<base64url of nonce || ciphertext>". The key id names
// the key that sealed it, so a ring of keys (the current one and older ones) opens values
// sealed before a rotation. The additional data binds a value to its table and column: a
// value copied onto another column does not open. (The row is not bound: ent's ValueScanner,
// which seals at the storage layer, is not told the row.)
//
// The ring is one per process, installed at start-up: ent calls the sealing code of a column
// without a context or a client, so it cannot be told which Service is writing.
package secrets

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
)

// KeySize is the size of a key: AES-256.
const KeySize = 32

// prefix starts every sealed value; its version names the format and the cipher.
const prefix = "enc:v1:"

// ErrNoKeyRing is returned when a secret is to be sealed, or a sealed one opened, before a key
// ring is installed.
var ErrNoKeyRing = errors.New("secrets: no secret key configured: set CHECKOUT_SECRET_KEY")

// ErrNotOpened is returned when a sealed value's key is in the ring but the value does not open:
// it was altered, or copied from another column.
var ErrNotOpened = errors.New("secrets: a stored secret does not open with its key: it was altered or copied from another column")

// UnknownKeyError is returned when a stored secret was sealed with a key the ring does not hold.
type UnknownKeyError struct{ ID string }

func (e *UnknownKeyError) Error() string {
	return fmt.Sprintf("secrets: a stored secret is sealed with key %s, which is neither CHECKOUT_SECRET_KEY nor in CHECKOUT_SECRET_KEY_PREVIOUS", e.ID)
}

// InvalidKeyError is returned for a key that is not 32 bytes in base64.
type InvalidKeyError struct{ Reason string }

func (e *InvalidKeyError) Error() string {
	return "secrets: invalid key (want 32 random bytes in base64, e.g. from `openssl rand -base64 32`): " + e.Reason
}

type key struct {
	id   string
	aead cipher.AEAD
}

func parseKey(encoded string) (*key, error) {
	encoded = strings.TrimSpace(encoded)
	var raw []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if raw, err = enc.DecodeString(encoded); err == nil {
			break
		}
	}
	if err != nil {
		return nil, &InvalidKeyError{Reason: "not base64"}
	}
	if len(raw) != KeySize {
		return nil, &InvalidKeyError{Reason: fmt.Sprintf("%d bytes", len(raw))}
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	// The id is derived from the key, so that an operator never has to name keys and a wrong
	// key is told apart from a damaged value. An HMAC, not a bare hash, so that the id is no
	// short digest of the key itself.
	m := hmac.New(sha256.New, raw)
	m.Write([]byte("checkoutd secret key id"))
	return &key{id: hex.EncodeToString(m.Sum(nil)[:4]), aead: aead}, nil
}

// GenerateKey returns a new random key in base64.
func GenerateKey() string {
	raw := make([]byte, KeySize)
	if _, err := rand.Read(raw); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return base64.StdEncoding.EncodeToString(raw)
}

// Ring is the current key, which seals, and the older keys that still open.
type Ring struct {
	current *key
	keys    map[string]*key
}

// NewRing returns the ring of current (CHECKOUT_SECRET_KEY) and previous
// (CHECKOUT_SECRET_KEY_PREVIOUS, comma-separated, may be empty).
func NewRing(current string, previous string) (*Ring, error) {
	c, err := parseKey(current)
	if err != nil {
		return nil, err
	}
	r := &Ring{current: c, keys: map[string]*key{c.id: c}}
	for _, p := range strings.Split(previous, ",") {
		if strings.TrimSpace(p) == "" {
			continue
		}
		k, err := parseKey(p)
		if err != nil {
			return nil, fmt.Errorf("CHECKOUT_SECRET_KEY_PREVIOUS: %w", err)
		}
		r.keys[k.id] = k
	}
	return r, nil
}

// CurrentID is the id of the key that seals.
func (r *Ring) CurrentID() string { return r.current.id }

func additionalData(kid, column string) []byte { return []byte(prefix + kid + ":" + column) }

// Seal seals plain for column ("table.column") under the current key.
func (r *Ring) Seal(plain []byte, column string) []byte {
	nonce := make([]byte, r.current.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	sealed := r.current.aead.Seal(nonce, nonce, plain, additionalData(r.current.id, column))
	out := []byte(prefix + r.current.id + ":")
	return base64.RawURLEncoding.AppendEncode(out, sealed)
}

// IsSealed reports whether stored is a sealed value rather than a clear one kept from before
// secrets were sealed.
func IsSealed(stored []byte) bool { return bytes.HasPrefix(stored, []byte(prefix)) }

// SealedWith is the id of the key stored was sealed with, "" for a clear value.
func SealedWith(stored []byte) string {
	if !IsSealed(stored) {
		return ""
	}
	kid, _, _ := bytes.Cut(stored[len(prefix):], []byte(":"))
	return string(kid)
}

// Open returns the clear value of stored, read from column ("table.column"). A clear value
// (stored before secrets were sealed) is returned as it is, so that an existing database keeps
// working until its secrets are sealed.
func (r *Ring) Open(stored []byte, column string) ([]byte, error) {
	if !IsSealed(stored) {
		return stored, nil
	}
	kid, body, ok := bytes.Cut(stored[len(prefix):], []byte(":"))
	if !ok {
		return nil, ErrNotOpened
	}
	k := r.keys[string(kid)]
	if k == nil {
		return nil, &UnknownKeyError{ID: string(kid)}
	}
	sealed, err := base64.RawURLEncoding.DecodeString(string(body))
	if err != nil || len(sealed) < k.aead.NonceSize() {
		return nil, ErrNotOpened
	}
	nonce, ciphertext := sealed[:k.aead.NonceSize()], sealed[k.aead.NonceSize():]
	plain, err := k.aead.Open(nil, nonce, ciphertext, additionalData(k.id, column))
	if err != nil {
		return nil, ErrNotOpened
	}
	return plain, nil
}

var installed atomic.Pointer[Ring]

// Install makes r the process's key ring, the one the database columns seal and open with.
func Install(r *Ring) { installed.Store(r) }

// Installed is the process's key ring, nil before Install.
func Installed() *Ring { return installed.Load() }

// HasKey reports whether the ring holds the key of id.
func (r *Ring) HasKey(id string) bool { return r.keys[id] != nil }
