package platformserver

import (
	"encoding/json"
	"net/http"
)

// discard is a ResponseWriter that keeps only the next cursor of a list answer.
type discard struct {
	h    http.Header
	buf  []byte
	next string
}

func newDiscard() *discard { return &discard{h: http.Header{}} }

func (d *discard) Header() http.Header { return d.h }
func (d *discard) WriteHeader(int)     {}
func (d *discard) Write(b []byte) (int, error) {
	d.buf = append(d.buf, b...)
	var p struct {
		Pagination Pagination `json:"pagination"`
	}
	if json.Unmarshal(d.buf, &p) == nil {
		d.next = p.Pagination.Next
	}
	return len(b), nil
}
