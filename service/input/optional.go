package input

import (
	"bytes"
	"encoding/json"
)

// Nullable is a field of a partial update: absent (unchanged), null, or a value.
type Nullable[T any] struct {
	Set   bool
	Value *T
}

// Of returns a Nullable holding v.
func Of[T any](v T) Nullable[T] { return Nullable[T]{Set: true, Value: &v} }

// UnmarshalJSON records that the field was present, and whether it was null.
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	n.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		n.Value = nil
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	n.Value = &v
	return nil
}

// SetOrClear sets a nullable column to *v, or to NULL when v is nil. ent's Clear followed by
// Set assigns the column twice in one UPDATE, which PostgreSQL refuses.
func SetOrClear[T, R any](v *T, set func(T) R, clear func() R) {
	if v != nil {
		set(*v)
	} else {
		clear()
	}
}
