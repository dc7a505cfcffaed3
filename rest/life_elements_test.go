package rest_test

import (
	"testing"

	"github.com/checkoutd/checkoutd/service/problem"
)

func lifeElement() map[string]any {
	return map[string]any{
		"location": "customer_info", "input_type": "text", "input_label": "Gift note",
		"input_required": false, "meta_data_field": "gift_note", "order_asc": 1,
	}
}

func TestCreateLifeElementAnswersTheElement(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		el := a.do("POST", a.shopPath("/life_elements"), lifeElement()).wantStatus(t, 200).data(t)["life_elements"].(map[string]any)
		if el["public_id"] == "" || el["location"] != "customer_info" || el["input_default"] != nil {
			t.Fatalf("element %v", el)
		}
		list := a.do("GET", a.shopPath("/life_elements"), nil).wantStatus(t, 200).data(t)["life_elements"].([]any)
		if len(list) != 1 {
			t.Fatalf("list %v", list)
		}
	})
}

func TestLifeElementMissingRequiredFieldIs422_02_94(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		body := lifeElement()
		delete(body, "meta_data_field")
		e := a.do("POST", a.shopPath("/life_elements"), body).wantError(t, 422, "02-94", "life_element.invalid_life_element_data")
		if e["details"].(map[string]any)["meta_data_field"] == nil {
			t.Fatalf("details do not name the field: %v", e)
		}
	})
}

func TestLifeElementUnknownLocationOrInputTypeIs422(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		for field, bad := range map[string]any{"location": "footer", "input_type": "slider", "input_regex": "(", "order_asc": "first"} {
			body := lifeElement()
			body[field] = bad
			r := a.do("POST", a.shopPath("/life_elements"), body)
			if r.Status != 422 {
				t.Fatalf("%s=%v: status %d %s", field, bad, r.Status, r.Raw)
			}
		}
	})
}

func TestUpdateLifeElementChangesOnlyTheGivenAttributes(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		el := a.do("POST", a.shopPath("/life_elements"), lifeElement()).wantStatus(t, 200).data(t)["life_elements"].(map[string]any)
		id := el["public_id"].(string)
		up := a.do("PATCH", a.shopPath("/life_elements/"+id), map[string]any{"order_asc": 5, "input_label": nil}).
			wantStatus(t, 200).data(t)["life_elements"].(map[string]any)
		if up["order_asc"].(float64) != 5 || up["input_label"] != nil || up["meta_data_field"] != "gift_note" {
			t.Fatalf("updated %v", up)
		}
	})
}

func TestUpdateUnknownLifeElementIs422_02_94NotConfigured(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("PATCH", a.shopPath("/life_elements/nope"), map[string]any{"order_asc": 2}).
			wantError(t, 422, "02-94", "life_element.life_element_not_configured")
	})
}

func TestDeleteUnknownLifeElementIs422_02_91NotConfigured(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("DELETE", a.shopPath("/life_elements/nope"), nil).
			wantError(t, 422, problem.CodeElementNotFound, "life_element.life_element_not_configured")
	})
}

func TestDeleteLifeElementAnswersEmptyData(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		el := a.do("POST", a.shopPath("/life_elements"), lifeElement()).wantStatus(t, 200).data(t)["life_elements"].(map[string]any)
		d := a.do("DELETE", a.shopPath("/life_elements/"+el["public_id"].(string)), nil).wantStatus(t, 200).data(t)
		if len(d) != 0 {
			t.Fatalf("data %v", d)
		}
	})
}
