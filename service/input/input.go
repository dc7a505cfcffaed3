// Package input holds the bounds of everything a caller sends (amounts, quantities, texts,
// maps, objects, URLs) and the checks that collect what is wrong with one input, field by field.
// Every domain checks its inputs with it, so that one bound means the same everywhere
// (docs/api.md, "Bounds").
package input

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Problems collects per-field problems of one input.
type Problems map[string]string

// Add records what is wrong with field.
func (p Problems) Add(field, what string) { p[field] = what }

// Details are the problems as an error's details.
func (p Problems) Details() map[string]any {
	d := make(map[string]any, len(p))
	for k, v := range p {
		d[k] = v
	}
	return d
}

// Message is the problems in one sentence, in a stable order.
func (p Problems) Message() string {
	parts := make([]string, 0, len(p))
	for k, v := range p {
		parts = append(parts, k+" "+v)
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}

// Text adds a problem for field when value holds more than max characters.
func (p Problems) Text(field, value string, max int) {
	if TooLong(value, max) {
		p.Add(field, fmt.Sprintf("is longer than %d characters", max))
	}
}

// Object adds a problem when a free-form JSON object a caller sends is over MaxObjectBytes.
func (p Problems) Object(field string, v map[string]any) {
	if len(v) == 0 {
		return
	}
	if b, err := json.Marshal(v); err != nil || len(b) > MaxObjectBytes {
		p.Add(field, fmt.Sprintf("is larger than %d bytes of JSON", MaxObjectBytes))
	}
}

// Amount adds a problem when an amount given is not positive or above MaxAmount.
func (p Problems) Amount(field string, a *int64) {
	if a != nil && (*a <= 0 || *a > MaxAmount) {
		p.Add(field, fmt.Sprintf("must be a positive amount in minor units, at most %d", MaxAmount))
	}
}
