package rsa

import (
	"reflect"
	"testing"

	json "github.com/segmentio/encoding/json"
)

func TestAnOrderStatesPropertiesAndCartParamsDecodeAsWritten(t *testing.T) {
	for _, c := range []struct {
		raw    string
		props  Properties
		params CartParams
	}{
		{`{"line_items":[{"properties":{}}],"cart_params":{ }}`, Properties{}, CartParams{}},
		{`{"line_items":[{"properties":null}],"cart_params":null}`, nil, nil},
		{`{"line_items":[{}]}`, nil, nil},
		{`{"line_items":[{"properties":{"engraving":"Ada"}}],"cart_params":{"gift":true,"qty":12.50,"box":{"size":"L"}}}`,
			Properties{"engraving": "Ada"}, CartParams{"gift": true, "qty": json.Number("12.50"), "box": map[string]any{"size": "L"}}},
	} {
		var st OrderState
		if _, err := json.Parse([]byte(c.raw), &st, json.UseNumber); err != nil {
			t.Fatalf("%s: %v", c.raw, err)
		}
		if got := st.LineItems[0].Properties; !reflect.DeepEqual(got, c.props) || (got == nil) != (c.props == nil) {
			t.Errorf("%s: properties %#v, want %#v", c.raw, got, c.props)
		}
		if got := st.CartParams; !reflect.DeepEqual(got, c.params) || (got == nil) != (c.params == nil) {
			t.Errorf("%s: cart params %#v, want %#v", c.raw, got, c.params)
		}
	}
	var st OrderState
	if _, err := json.Parse([]byte(`{"cart_params":{"a":}}`), &st, json.UseNumber); err == nil {
		t.Fatal("a broken cart_params decoded")
	}
}
