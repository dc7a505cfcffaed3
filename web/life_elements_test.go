package web_test

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
)

func TestLifeElementsAreCreatedEditedAndDeletedWithErrorsNextToTheirField(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/life-elements")
		c.submitAndWait("#new-element", "#element-form")
		c.fill(map[string]string{"location": "", "input_type": "text", "meta_data_field": "gate_code", "order_asc": "2", "input_label": "Gate code"})
		c.submitAndWait("#submit", "#location-error")
		c.wantText("#location-error", "is required")
		c.wantText("#form-error", "invalid LiFE element")

		c.fill(map[string]string{"location": "shipping", "input_regex": "[0-9]+"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#elements", "gate_code")
		c.wantText("#elements", "Gate code")

		c.submitAndWait("#elements a.edit", "#element-form")
		c.fill(map[string]string{"input_label": "Door code", "input_regex": "[0-9"})
		c.submitAndWait("#submit", "#input_regex-error")
		c.wantText("#input_regex-error", "not a valid regular expression")
		c.fill(map[string]string{"input_regex": ""})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#elements", "Door code")
		els, err := c.svc.Shops.LifeElements(context.Background(), c.shopEntity())
		if err != nil || len(els) != 1 || els[0].InputRegex != nil || *els[0].InputLabel != "Door code" {
			t.Fatalf("elements after edit: %v %v", els, err)
		}

		c.submitAndWait("#elements a.delete", "#confirm-question")
		c.wantText("#confirm-question", "gate_code")
		c.submitAndWait("#confirm", "#flash")
		c.wantText("main", "No LiFE elements yet")
	})
}

func TestTheLifeElementPreviewShowsWhereTheElementLandsAsItIsTyped(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/life-elements/new")
		c.wantText("#preview-slot .slot-name", "customer_info")
		c.run(chromedp.SetValue(chromedp.CSS("#location"), "thank_you_message"),
			typeInto("#input_label", "Leave a note", false),
			chromedp.WaitVisible(chromedp.CSS(`#preview-slot[data-location="thank_you_message"]`)))
		c.waitText("#preview-slot #preview-element", "Leave a note")
	})
}
